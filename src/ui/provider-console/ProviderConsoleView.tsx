import { useId, type FormEvent, type ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Card } from 'primereact/card';
import { InputText } from 'primereact/inputtext';
import { Skeleton } from 'primereact/skeleton';
import { Tag } from 'primereact/tag';
import { PAGE_TITLES } from '../../domain/navigation';
import {
  CONSOLE_MESSAGES,
  type ProviderHealthResponse,
  type ServiceLineSearchResponse,
  type UserTerminalsResponse,
} from '../../domain/provider-console';
import { PageHeader } from '../common/PageHeader';
import { count, milliseconds } from './format';
import { EmptyCard, ErrorCard } from './parts';
import { SearchResults } from './SearchResults';
import { TerminalsResults } from './TerminalsResults';
import './provider-console.css';

export const SERVICE_LINE_PLACEHOLDER = 'SL-12345-67890';

export interface ProviderConsoleViewProps {
  /** Which provider account the console asks (null: the portal has one, and nothing to choose). */
  accountPicker?: ReactNode;
  /** The search box, as typed. */
  serviceLineInput: string;
  /** Search can start now: the trimmed input is non-empty and no search is under way. */
  canSearch: boolean;
  searching: boolean;
  /** The last search's answer, when the service line was found. */
  searchResult: ServiceLineSearchResponse | null;
  /** The service line the last search did not find. */
  notFoundServiceLine: string | null;
  searchError: string | null;

  loadingTerminals: boolean;
  terminals: UserTerminalsResponse | null;
  terminalsError: string | null;

  /** The connection test (optional status line). */
  health: ProviderHealthResponse | null;
  healthError: string | null;
  checkingHealth: boolean;

  onServiceLineInput(value: string): void;
  onSearch(): void;
  onLoadTerminals(): void;
  onCheckConnection(): void;
  onNavigate(url: string): void;
}

const PROVIDER_LABEL: Record<ProviderHealthResponse['provider'], string> = {
  simulator: 'the built-in simulator',
  starlink: 'the Starlink API',
};

const HEALTH_CLASS: Record<ProviderHealthResponse['status'], string> = {
  Healthy: 'health-success',
  Degraded: 'health-warning',
  Down: 'health-danger',
};

function HealthLine({
  health,
  error,
  checking,
  onCheck,
}: {
  health: ProviderHealthResponse | null;
  error: string | null;
  checking: boolean;
  onCheck(): void;
}) {
  let tone = 'health-secondary';
  let line: string;
  if (checking) {
    line = 'Checking the provider connection...';
  } else if (error) {
    tone = 'health-danger';
    line = error === CONSOLE_MESSAGES.connectionFailed ? error : `${CONSOLE_MESSAGES.connectionFailed}: ${error}`;
  } else if (health) {
    tone = HEALTH_CLASS[health.status];
    const facts = [
      health.accountNumber,
      `API ${health.apiVersion}`,
      health.latencyMs == null ? null : milliseconds(health.latencyMs),
    ].filter((fact): fact is string => !!fact);
    const lead =
      health.status === 'Healthy'
        ? `Connected to ${PROVIDER_LABEL[health.provider]}`
        : `${health.status}: ${health.message ?? PROVIDER_LABEL[health.provider]}`;
    line = [lead, ...facts].join(' · ');
  } else {
    line = 'Provider connection not checked yet';
  }
  return (
    <div className="console-health">
      <p className={`console-health-text ${tone}`} role="status">
        <i className="pi pi-circle-fill health-dot" aria-hidden="true" />
        {line}
      </p>
      <Button
        type="button"
        label="Test Connection"
        icon="pi pi-bolt"
        size="small"
        text
        disabled={checking}
        onClick={onCheck}
      />
    </div>
  );
}

function ResultsSkeleton({ label }: { label: string }) {
  return (
    <Card className="console-skeleton" aria-busy="true" aria-label={label}>
      <Skeleton width="40%" height="1.25rem" className="console-skeleton-line" />
      <Skeleton width="100%" height="6rem" />
    </Card>
  );
}

/** "Starlink API Simulator": a console for the provider's API. Renders props, calls callbacks. */
export function ProviderConsoleView(props: ProviderConsoleViewProps) {
  const meta = PAGE_TITLES['/customers/starlink-simulator'];
  const id = useId();
  const inputId = `${id}-service-line`;
  const searchHeadingId = `${id}-search`;
  const searchResultsHeadingId = `${id}-search-results`;
  const terminalsHeadingId = `${id}-terminals`;
  const terminalsResultsHeadingId = `${id}-terminals-results`;
  const { terminals, searchResult } = props;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (props.canSearch) props.onSearch();
  };

  const showSearchResults = props.searching || searchResult !== null || props.notFoundServiceLine !== null;
  const showTerminalsResults = props.loadingTerminals || terminals !== null;

  return (
    <div className="page provider-console">
      <PageHeader
        title={meta.title}
        breadcrumb={meta.breadcrumb}
        subtitle="Query the provider's API: service line search, user terminals, usage and raw responses."
        {...(props.accountPicker ? { actions: <div className="account-picker">{props.accountPicker}</div> } : {})}
        onNavigate={props.onNavigate}
      />
      <HealthLine
        health={props.health}
        error={props.healthError}
        checking={props.checkingHealth}
        onCheck={props.onCheckConnection}
      />

      <div className="console-controls">
        <section className="console-panel" aria-labelledby={searchHeadingId}>
          <h2 id={searchHeadingId} className="section-title">
            Service Line Search
          </h2>
          <p className="text-muted console-panel-hint">Details, usage and raw provider responses for one service line.</p>
          <form className="console-search" onSubmit={submit} role="search" aria-labelledby={searchHeadingId}>
            <label htmlFor={inputId} className="console-label">
              Service line number
            </label>
            <div className="console-search-row">
              <InputText
                id={inputId}
                name="serviceLineNumber"
                autoComplete="off"
                spellCheck={false}
                placeholder={SERVICE_LINE_PLACEHOLDER}
                value={props.serviceLineInput}
                onChange={(event) => props.onServiceLineInput(event.target.value)}
              />
              <Button
                type="submit"
                label={props.searching ? 'Searching...' : 'Search'}
                icon={props.searching ? 'pi pi-spin pi-spinner' : 'pi pi-search'}
                disabled={!props.canSearch}
              />
            </div>
          </form>
        </section>

        <section className="console-panel" aria-labelledby={terminalsHeadingId}>
          <h2 id={terminalsHeadingId} className="section-title">
            User Terminals
          </h2>
          <p className="text-muted console-panel-hint">Every user terminal on the provider account.</p>
          <div className="console-terminals-row">
            <Button
              type="button"
              label={props.loadingTerminals ? 'Loading...' : 'Load Terminals'}
              icon={props.loadingTerminals ? 'pi pi-spin pi-spinner' : 'pi pi-download'}
              disabled={props.loadingTerminals}
              onClick={props.onLoadTerminals}
            />
            {terminals && (
              <div className="console-terminals-summary" aria-label="Loaded terminals">
                <Tag value={`Total: ${count(terminals.totalCount)}`} severity="info" rounded />
                <Tag value={`Active: ${count(terminals.stats.activeTerminals)}`} severity="success" rounded />
                <span className="text-muted console-duration">{milliseconds(terminals.metadata.apiCallDuration)}</span>
              </div>
            )}
          </div>
        </section>
      </div>

      {props.searchError && (
        <ErrorCard title="Search failed" message={props.searchError} onRetry={props.onSearch} retryDisabled={!props.canSearch} headingLevel={3} />
      )}
      {showSearchResults && (
        <section className="console-results" aria-labelledby={searchResultsHeadingId}>
          <h2 id={searchResultsHeadingId} className="section-title">
            Search Results
          </h2>
          {props.searching ? (
            <ResultsSkeleton label="Searching" />
          ) : searchResult ? (
            <SearchResults response={searchResult} />
          ) : (
            <EmptyCard
              icon="pi pi-search"
              title="Service Line Not Found"
              text="The specified service line was not found in the Starlink system"
            >
              <p className="console-empty-detail">{props.notFoundServiceLine}</p>
            </EmptyCard>
          )}
        </section>
      )}

      {props.terminalsError && (
        <ErrorCard title="Error loading terminals" message={props.terminalsError} onRetry={props.onLoadTerminals} headingLevel={3} />
      )}
      {showTerminalsResults && (
        <section className="console-results" aria-labelledby={terminalsResultsHeadingId}>
          <h2 id={terminalsResultsHeadingId} className="section-title">
            User Terminals Results
          </h2>
          {props.loadingTerminals || !terminals ? (
            <ResultsSkeleton label="Loading terminals" />
          ) : terminals.terminals.length === 0 ? (
            <EmptyCard icon="pi pi-inbox" title="No Terminals Found" text="No user terminals were found for this account" />
          ) : (
            <TerminalsResults response={terminals} />
          )}
        </section>
      )}
    </div>
  );
}
