import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { LoginView, type LoginCodeStep } from '../../src/ui/login/LoginView';
import { MFA_MESSAGES } from '../../src/domain/mfa';
import { renderStrict } from './render';

describe('LoginView', () => {
  it('welcomes the user and asks for an admin account', () => {
    renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={() => {}} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome to the Enterprise Admin Portal' })).toBeTruthy();
    expect(screen.getByText('Login with your admin account')).toBeTruthy();
  });

  it('submits the entered email and password once', async () => {
    const onSubmit = vi.fn();
    const { user } = renderStrict(<LoginView busy={false} error={null} onSubmit={onSubmit} onNavigate={() => {}} />);

    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 's3cret-Pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));

    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit).toHaveBeenCalledWith({ email: 'admin@example.com', password: 's3cret-Pass' });
  });

  it('leaves required and email-format checks to the browser', () => {
    renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={() => {}} />);
    const email = screen.getByLabelText('Email') as HTMLInputElement;
    const password = screen.getByLabelText('Password') as HTMLInputElement;

    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(email.getAttribute('autocomplete')).toBe('username');
    expect(password.type).toBe('password');
    expect(password.required).toBe(true);
    expect(password.getAttribute('autocomplete')).toBe('current-password');
  });

  it('reads "Signing in..." and is disabled while busy', async () => {
    const onSubmit = vi.fn();
    const { user } = renderStrict(<LoginView busy error={null} onSubmit={onSubmit} onNavigate={() => {}} />);

    const button = screen.getByRole('button', { name: 'Signing in...' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Login' })).toBeNull();

    await user.type(screen.getByLabelText('Email'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw{Enter}');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the error it is given in an alert', () => {
    renderStrict(<LoginView busy={false} error="Invalid email or password" onSubmit={() => {}} onNavigate={() => {}} />);
    expect(screen.getByRole('alert').textContent).toContain('Invalid email or password');
  });

  it('shows no alert without an error', () => {
    renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={() => {}} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('reveals and hides the password with the show-password toggle', async () => {
    const { user } = renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={() => {}} />);
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    const toggle = screen.getByRole('button', { name: 'Show password' });

    await user.click(toggle);
    expect(password.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await user.click(toggle);
    expect(password.type).toBe('password');
  });

  it('links "Forgot your password?" to /forgot-password inside the app', async () => {
    const onNavigate = vi.fn();
    const { user } = renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={onNavigate} />);
    const forgot = screen.getByRole('link', { name: 'Forgot your password?' });
    expect(forgot.getAttribute('href')).toBe('/forgot-password');

    const before = window.location.href;
    await user.click(forgot);
    expect(onNavigate).toHaveBeenCalledExactlyOnceWith('/forgot-password');
    expect(window.location.href).toBe(before);
  });

  it('offers the contact-your-administrator link, which goes nowhere', () => {
    renderStrict(<LoginView busy={false} error={null} onSubmit={() => {}} onNavigate={() => {}} />);
    const contact = screen.getByRole('link', { name: 'Contact your administrator' });
    expect(contact.getAttribute('href')).toBe('#');
    expect(contact.parentElement?.textContent).toBe("Don't have an account? Contact your administrator");
  });
});

describe('LoginView: the code step', () => {
  function renderCodeStep(step: Partial<LoginCodeStep> = {}) {
    const codeStep: LoginCodeStep = { code: '', error: null, busy: false, onCode: vi.fn(), onSubmit: vi.fn(), onBack: vi.fn(), ...step };
    const onSubmit = vi.fn();
    return { ...renderStrict(<LoginView busy={false} error={null} onSubmit={onSubmit} codeStep={codeStep} onNavigate={() => {}} />), codeStep, onSubmit };
  }

  it('replaces the email and password with the authentication code field and its hint', () => {
    renderCodeStep();
    expect(screen.getByText(MFA_MESSAGES.codeRequired)).toBeTruthy();
    const input = screen.getByLabelText(MFA_MESSAGES.codeLabel) as HTMLInputElement;
    expect(input.getAttribute('autocomplete')).toBe('one-time-code');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toBe(MFA_MESSAGES.codeHint);
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.queryByLabelText('Password')).toBeNull();
  });

  it('hands the typed code back, verifies on Verify and goes back on Back', async () => {
    const { user, codeStep, onSubmit } = renderCodeStep({ code: '123456' });
    await user.type(screen.getByLabelText(MFA_MESSAGES.codeLabel), 'A');
    expect(codeStep.onCode).toHaveBeenCalledWith('123456A');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(codeStep.onSubmit).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(codeStep.onBack).toHaveBeenCalledTimes(1);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('accepts a backup code as long as XXXX-XXXX', () => {
    renderCodeStep();
    expect((screen.getByLabelText(MFA_MESSAGES.codeLabel) as HTMLInputElement).maxLength).toBe(9);
  });

  it('shows the code error in an alert', () => {
    renderCodeStep({ error: MFA_MESSAGES.wrongCode });
    expect(screen.getByRole('alert').textContent).toContain(MFA_MESSAGES.wrongCode);
  });

  it('reads "Verifying..." while busy, with the field and Back disabled', async () => {
    const { user, codeStep } = renderCodeStep({ busy: true, code: '123456' });
    const verify = screen.getByRole('button', { name: 'Verifying...' }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Back' }) as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByLabelText(MFA_MESSAGES.codeLabel) as HTMLInputElement).disabled).toBe(true);
    await user.click(verify);
    expect(codeStep.onSubmit).not.toHaveBeenCalled();
  });
});
