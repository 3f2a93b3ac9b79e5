export { PlatformClient, apiPath, pathSegment, closeAllPools, guardWrites, PAGE_SIZE } from "./http";
export type { ClientOptions, RequestOptions, ApiResponse, GraphqlAnswer, Query, QueryValue, FilePart, FormFields, FormValue, DownloadedFile, StreamConsumer, Credentials } from "./http";
export { ApiError, NetworkError, parseErrorBody, mayHaveBeenApplied, tokenRefused, missingOrHidden, roleNeeded, tierNeeded, flagOff, REFUSAL_ADVICE, STACK_TOKEN_SETTING } from "./errors";
export type { ApiErrorKind } from "./errors";
export { linkRelation } from "./pagination";
export { setClientClock } from "./clock";
export type { ClientClock } from "./clock";
export type { TlsOptions } from "./transport";
