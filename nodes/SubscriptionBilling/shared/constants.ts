export const CREDENTIAL_TYPE = 'subscriptionBillingApi';

/** The header the credential's key is sent in (the credential declares the same for n8n's HTTP Request node). */
export const API_KEY_HEADER = 'X-SERVICE-KEY';

export const MAX_PAGE_SIZE = 1000;

export const IDEMPOTENCY_HEADER = 'X-SERVICE-IDEMPOTENT-OPERATION-KEY';
