// The portal API's response envelope (spec section 7): every body is `{ success, data, message }`;
// a body with `success: false` is a failure whatever its HTTP status.
export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  message: string;
}

export interface FailureEnvelope {
  success: false;
  message: string;
  /** Field-level problems for 400s: `{ path: 'email', message: '...' }`. */
  errors?: { path: string; message: string }[];
  requestId?: string;
}

export type Envelope<T> = SuccessEnvelope<T> | FailureEnvelope;
