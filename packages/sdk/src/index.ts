export { createClient, type ApiClient, type ClientOptions } from './client.js';
export {
  createPublicClient,
  type CreatedBooking,
  type CreatedRegistration,
  type PublicBookingBody,
  type PublicClient,
  type PublicClientOptions,
  type RegistrationBody,
} from './public-client.js';
export type { ApiKeys, Holds } from './namespaces.js';
export type * from './key-types.js';
export type { Change, ChangesOptions, ChangeType } from './changes.js';
export { ApiError, isApiError } from './errors.js';
export type { UploadOptions, UploadSource } from './media.js';
export { DEFAULT_RETRY, type RetryOptions } from './retry.js';
export type {
  ApiResult,
  ErrorBody,
  ErrorCode,
  ErrorDetail,
  ListItem,
  ListPath,
  Method,
  OperationErrorBody,
  Page,
  PathsFor,
  RequestInitFor,
  ResponseData,
} from './types.js';
export type { components, paths } from './generated/schema.js';
