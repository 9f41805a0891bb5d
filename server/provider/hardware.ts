// The terminal models the provider ships, and how to tell them apart: telemetry reports a
// `hardwareVersion`, and the first four characters of a dish serial number name the model. One
// table for both sides of the wire: the simulator builds its fleet from it and the inventory sync
// reads a terminal's type from it, so the two cannot drift apart.

export interface TerminalModel {
  name: 'Standard' | 'Standard Actuated' | 'Flat High Performance' | 'Enterprise' | 'Mini';
  /** What telemetry reports as hardwareVersion; the model is derivable from it. */
  hardwareVersion: string;
  /** First four characters of the dish serial number. */
  dishPrefix: string;
  maxDownlinkMbps: number;
  maxUplinkMbps: number;
  hasMotors: boolean;
  /** Share of the simulated fleet (relative). */
  weight: number;
}

export const MODELS: readonly TerminalModel[] = [
  { name: 'Standard', hardwareVersion: 'rev4_prod2', dishPrefix: '3PFB', maxDownlinkMbps: 220, maxUplinkMbps: 25, hasMotors: false, weight: 45 },
  { name: 'Standard Actuated', hardwareVersion: 'rev3_proto2', dishPrefix: '2DHT', maxDownlinkMbps: 180, maxUplinkMbps: 20, hasMotors: true, weight: 15 },
  { name: 'Flat High Performance', hardwareVersion: 'hp1_proto1', dishPrefix: '4HPF', maxDownlinkMbps: 280, maxUplinkMbps: 35, hasMotors: false, weight: 15 },
  { name: 'Enterprise', hardwareVersion: 'enterprise_prod1', dishPrefix: '2ENT', maxDownlinkMbps: 300, maxUplinkMbps: 40, hasMotors: false, weight: 10 },
  { name: 'Mini', hardwareVersion: 'mini1_prod2', dishPrefix: '5MNI', maxDownlinkMbps: 120, maxUplinkMbps: 15, hasMotors: false, weight: 15 },
];

/** The model a telemetry `hardwareVersion` or a dish serial number belongs to. */
export function modelOf(hardwareVersionOrDishSerial: string): TerminalModel | undefined {
  const value = hardwareVersionOrDishSerial.trim();
  return MODELS.find((m) => m.hardwareVersion === value || value.toUpperCase().startsWith(m.dishPrefix));
}

/**
 * A terminal's model from what the provider told us: telemetry's hardwareVersion first (it is
 * what the dish says about itself), else the dish serial's prefix; undefined when neither is known.
 */
export function terminalModelOf(terminal: { hardwareVersion?: string | null; dishSerialNumber?: string | null }): TerminalModel | undefined {
  const byHardware = terminal.hardwareVersion ? MODELS.find((m) => m.hardwareVersion === terminal.hardwareVersion!.trim()) : undefined;
  return byHardware ?? (terminal.dishSerialNumber ? modelOf(terminal.dishSerialNumber) : undefined);
}
