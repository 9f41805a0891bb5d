// "Search Results": Service Line Details, Enhanced Details, Usage Data, Metadata and Raw Response tabs.
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';
import { ProgressBar } from 'primereact/progressbar';
import { TabPanel, TabView } from 'primereact/tabview';
import { Tag } from 'primereact/tag';
import {
  hourBucketLabel,
  type ConsoleDataBlock,
  type ConsoleOneTimeBlock,
  type ConsoleServiceEvent,
  type ConsoleUsageRecord,
  type ServiceLineDetails,
  type ServiceLineSearchResponse,
} from '../../domain/provider-console';
import { count, DASH, date, gb, milliseconds, percent, text, yesNo } from './format';
import { Block, EmptyCard, Fields, PAGE_SIZES, PAGINATOR_PT, RawJson, StatusTag } from './parts';

const NOT_PROVIDED = 'Not provided by the provider for this service line.';

function NotProvided() {
  return <p className="text-muted console-not-provided">{NOT_PROVIDED}</p>;
}

function DetailsTab({ details }: { details: ServiceLineDetails }) {
  return (
    <Fields
      className="console-fields-grid"
      items={[
        ['Service Line', details.serviceLineNumber],
        ['Status', <StatusTag key="status" active={details.active} />],
        ['Nickname', text(details.nickname)],
        ['Product Type', text(details.productType)],
        ['Data Allowance', text(details.dataAllowance)],
        ['Terminal ID', text(details.userTerminalId)],
        ['Kit Serial', text(details.kitSerialNumber)],
        ['Dish Serial', text(details.dishSerialNumber)],
        ['Location', text(details.location?.formattedAddress ?? details.addressReference)],
        ['Data Cap', details.dataCap ? `${count(details.dataCap.amount)} ${details.dataCap.unit}` : DASH],
        ['Billing Cycle Start', date(details.billingCycle.start)],
        ['Billing Cycle End', date(details.billingCycle.end)],
      ]}
    />
  );
}

function coordinates(location: NonNullable<ServiceLineDetails['location']>) {
  const at = location.coordinates;
  return at ? `${at.latitude.toFixed(4)}, ${at.longitude.toFixed(4)}` : DASH;
}

function DataBlocks({ blocks }: { blocks: NonNullable<ServiceLineDetails['dataBlocks']> }) {
  const cycle = blocks.currentCycle;
  const utilization = Math.round(Math.min(100, Math.max(0, cycle.utilizationPercent)));
  return (
    <div className="console-data-blocks">
      <div className="console-cycle">
        <Fields
          items={[
            ['Current Cycle Total', `${gb(cycle.totalGB)} GB`],
            ['Used', `${gb(cycle.usedGB)} GB`],
            ['Remaining', `${gb(cycle.remainingGB)} GB`],
            ['Utilization', percent(cycle.utilizationPercent)],
          ]}
        />
        <ProgressBar value={utilization} aria-label="Data utilization" className="console-utilization" />
      </div>

      <Block title="Recurring Blocks" level={4}>
        <DataTable
          value={blocks.recurring}
          size="small"
          emptyMessage="No recurring data blocks"
          pt={{ table: { 'aria-label': 'Recurring data blocks' } }}
        >
          <Column header="Amount" body={(block: ConsoleDataBlock) => count(block.amount)} />
          <Column field="unit" header="Unit" />
          <Column field="type" header="Type" />
          <Column
            header="Active"
            body={(block: ConsoleDataBlock) => (
              <Tag value={yesNo(block.active)} severity={block.active ? 'success' : 'secondary'} rounded />
            )}
          />
        </DataTable>
      </Block>

      <Block title="One-time Blocks" level={4}>
        <DataTable
          value={blocks.oneTime}
          size="small"
          emptyMessage="No one-time data blocks"
          pt={{ table: { 'aria-label': 'One-time data blocks' } }}
        >
          <Column header="Amount" body={(block: ConsoleOneTimeBlock) => count(block.amount)} />
          <Column field="unit" header="Unit" />
          <Column
            header="Status"
            body={(block: ConsoleOneTimeBlock) => (
              <Tag value={block.used ? 'Used' : 'Available'} severity={block.used ? 'secondary' : 'success'} rounded />
            )}
          />
          <Column header="Purchased" body={(block: ConsoleOneTimeBlock) => date(block.purchaseDate)} />
          <Column header="Expires" body={(block: ConsoleOneTimeBlock) => date(block.expirationDate)} />
        </DataTable>
      </Block>
    </div>
  );
}

function EnhancedTab({ details }: { details: ServiceLineDetails }) {
  const { product, location, dataBlocks, terminal, account } = details;
  return (
    <div className="console-columns">
      <Block title="Product">
        {product ? (
          <Fields
            items={[
              ['Type', text(product.type)],
              ['Name', text(product.name)],
              ['Category', text(product.category)],
              ['Billing Type', text(product.billingType)],
              ['Description', text(product.description)],
            ]}
          />
        ) : (
          <NotProvided />
        )}
      </Block>

      <Block title="Location">
        {location ? (
          <Fields
            items={[
              ['Region', text(location.region)],
              ['Country', text(location.country)],
              ['Timezone', text(location.timezone)],
              ['Coordinates', coordinates(location)],
            ]}
          />
        ) : (
          <NotProvided />
        )}
      </Block>

      <Block title="Terminal Hardware">
        {terminal ? (
          <Fields
            items={[
              ['Model', text(terminal.model)],
              ['Hardware Version', text(terminal.hardwareVersion)],
              ['Software Version', text(terminal.softwareVersion)],
              ['Firmware Version', text(terminal.firmwareVersion)],
              ['Installation Date', date(terminal.installationDate)],
              ['Last Seen', date(terminal.lastSeen)],
            ]}
          />
        ) : (
          <NotProvided />
        )}
      </Block>

      <Block title="Account">
        {account ? (
          <Fields
            items={[
              ['Account Number', text(account.accountNumber)],
              ['Account Type', text(account.accountType)],
              ['Customer Type', text(account.customerType)],
              ['Organization', text(account.organization)],
            ]}
          />
        ) : (
          <NotProvided />
        )}
      </Block>

      <Block title="Data Blocks" wide>
        {dataBlocks ? <DataBlocks blocks={dataBlocks} /> : <NotProvided />}
      </Block>

      <Block title="Service History" wide>
        <DataTable
          value={details.serviceHistory}
          size="small"
          emptyMessage="No service history"
          pt={{ table: { 'aria-label': 'Service history' } }}
        >
          <Column field="type" header="Type" />
          <Column field="description" header="Description" />
          <Column field="status" header="Status" />
          <Column header="Date" body={(event: ConsoleServiceEvent) => date(event.date)} />
        </DataTable>
      </Block>
    </div>
  );
}

function UsageTab({ response }: { response: ServiceLineSearchResponse }) {
  const { usageData, usageStats } = response;
  if (usageData.length === 0) {
    return <EmptyCard icon="pi pi-chart-bar" title="No Usage Data" text="No usage records found for this service line" />;
  }
  const range = usageStats.dateRange;
  return (
    <>
      <Fields
        className="console-fields-inline"
        items={[
          ['Total Usage', `${gb(usageStats.totalUsageGB)} GB`],
          ['Records', count(usageStats.totalRecords)],
          ['Date Range', `${date(range.start)} – ${date(range.end)}`],
        ]}
      />
      <DataTable
        value={usageData}
        dataKey="id"
        size="small"
        paginator={usageData.length > PAGE_SIZES[0]!}
        rows={PAGE_SIZES[0]}
        rowsPerPageOptions={PAGE_SIZES}
        pt={{ table: { 'aria-label': 'Usage records' }, paginator: PAGINATOR_PT }}
      >
        <Column field="usage_date" header="Date" />
        <Column header="Hour" body={(record: ConsoleUsageRecord) => hourBucketLabel(record.data_bucket)} />
        <Column header="Usage (GB)" body={(record: ConsoleUsageRecord) => gb(record.total_gb)} />
        <Column header="Synced" body={(record: ConsoleUsageRecord) => date(record.synced_at)} />
      </DataTable>
    </>
  );
}

function MetadataTab({ response }: { response: ServiceLineSearchResponse }) {
  const { metadata } = response;
  return (
    <Fields
      className="console-fields-grid"
      items={[
        ['API Version', metadata.apiVersion],
        ['Account Number', text(metadata.accountNumber)],
        ['Timestamp', date(metadata.timestamp)],
        ['API Call Duration', milliseconds(response.apiCallDuration)],
        ['Service Line Details Freshness', date(metadata.dataFreshness.serviceLineDetails)],
        ['Usage Data Freshness', date(metadata.dataFreshness.usageData)],
      ]}
    />
  );
}

/** The answer for a found service line. */
export function SearchResults({ response }: { response: ServiceLineSearchResponse }) {
  const details = response.serviceLineDetails;
  return (
    <TabView className="console-tabs" pt={{ nav: { 'aria-label': 'Search results' } }}>
      <TabPanel header="Service Line Details">{details ? <DetailsTab details={details} /> : <NotProvided />}</TabPanel>
      <TabPanel header="Enhanced Details">{details ? <EnhancedTab details={details} /> : <NotProvided />}</TabPanel>
      <TabPanel header="Usage Data">
        <UsageTab response={response} />
      </TabPanel>
      <TabPanel header="Metadata">
        <MetadataTab response={response} />
      </TabPanel>
      <TabPanel header="Raw Response">
        <RawJson value={response.rawApiResponses} label="Raw provider responses" />
      </TabPanel>
    </TabView>
  );
}
