/**
 * The needs vocabulary, as the engine's modules and the resources name it:
 * declared below the API layer (../api/needs.ts), so that an API module can
 * state the needs it shares with a resource and a function.
 */
export * from "../api/needs";
