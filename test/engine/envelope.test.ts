/**
 * The engine's envelope (src/engine/envelope.ts): what it writes into a
 * resource's inputs, what it reads back, and the keys of earlier versions it
 * still reads, as the state they wrote holds them.
 */
import { describe, expect, it } from "vitest";
import { actedOn, envelopeOf, withEnvelope, withoutEngineKeys } from "../../dist/engine/envelope";

const declared = { group: "acme", name: "docs" };
const takeover = { id: "groups/acme/badges/1", overwrites: { linkUrl: "https://old.example.com" } };

describe("the engine's envelope", () => {
  it("reads back what it wrote; the takeover stays a visible input, the rest goes under one hidden key", () => {
    const envelope = { importId: "groups/acme/badges/1", urn: "urn:pulumi:dev::p::t::n", applying: true, observed: { wouldDelete: ["a"] }, takeover };
    const inputs = withEnvelope(declared, envelope);
    expect(inputs).toEqual({ ...declared, takeover, __engine: { importId: "groups/acme/badges/1", urn: "urn:pulumi:dev::p::t::n", applying: true, observed: { wouldDelete: ["a"] } } });
    expect(envelopeOf(inputs)).toEqual(envelope);
    expect(withoutEngineKeys({ ...inputs, __provider: "exports.handler = ..." })).toEqual(declared);
    // Plain JSON values, as the engine stores inputs.
    expect(JSON.parse(JSON.stringify(inputs))).toEqual(inputs);
  });

  it("an empty envelope adds nothing, and inputs without one are returned as they are", () => {
    expect(withEnvelope(declared, { importId: undefined, observed: undefined })).toEqual(declared);
    expect(envelopeOf(declared)).toEqual({});
    expect(withoutEngineKeys(declared)).toBe(declared);
  });

  it("reads the keys earlier versions wrote (`__import`, `__observed`, `takeover`), and leaves them out of the declared properties", () => {
    const earlier = { ...declared, __import: "groups/acme/badges/1", __observed: { wouldDelete: ["a"] }, takeover, __provider: "text" };
    expect(envelopeOf(earlier)).toEqual({ importId: "groups/acme/badges/1", observed: { wouldDelete: ["a"] }, takeover });
    expect(withoutEngineKeys(earlier)).toEqual(declared);
    expect(actedOn(earlier)).toEqual({ ...declared, wouldDelete: ["a"] });
  });

  it("values of the wrong shape are no part of it", () => {
    expect(envelopeOf({ __engine: "text", __import: "", takeover: "x", __observed: [1] })).toEqual({});
    expect(envelopeOf({ __engine: { importId: 7, urn: 1, applying: "yes", observed: "x" } })).toEqual({});
  });
});
