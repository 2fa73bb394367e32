/** The gateway REST client: session lifecycle, retries, filters, typed API errors. */
export { GatewaySession, nameFilter } from './session.js';
export type { CreateCheck, ListOptions } from './session.js';
export type { SessionOptions, TerminateResult } from './channel.js';
export { withSession } from './lifecycle.js';
export type { WithSessionOptions, SignalSource, SessionScope } from './lifecycle.js';
export { resolveConnection, API_KEY_ENV } from './connection.js';
export type { ConnectionTarget, ConnectionInput, ResolvedConnection } from './connection.js';
export { checkBaseUrl, isLoopbackHost } from './base-url.js';
export type { HttpTimeouts, TransportOptions } from './http.js';
export { DEFAULT_RETRY_POLICY, parseRetryAfter, backoffDelay, isRetryableStatus, systemClock } from './retry.js';
export type { RetryPolicy, RetryClock } from './retry.js';
export { isBuiltInId } from '../api/documents.js';
export type { ApiResource, ConfigurationEntry, NewResource, ResourceIdentifier, RelationshipData, ValidatorMessage, ValidatorSeverity } from '../api/documents.js';
export { FilterSyntaxError, matchesFilter, parseFilters } from '../api/filter.js';
export type { Filter, FilterCondition, FilterOperator, FilterProperties } from '../api/filter.js';
