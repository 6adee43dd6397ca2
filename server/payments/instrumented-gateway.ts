import type { Telemetry } from "../observability/port.ts";
import type { PaymentGateway } from "./gateway.ts";

/**
 * The gateway with each call to the provider timed and traced (the operators' gateway latency).
 * The same port, so the payments service neither knows nor cares.
 */
export function instrumentedGateway(gateway: PaymentGateway, telemetry: Pick<Telemetry, "gatewayCall">): PaymentGateway {
  const timed = <T>(operation: string, call: () => Promise<T>) => telemetry.gatewayCall(gateway.kind, operation, call);
  return {
    kind: gateway.kind,
    checkout: gateway.checkout,
    cards: gateway.cards,
    webhooks: gateway.webhooks,
    createIntent: (input) => timed("create_intent", () => gateway.createIntent(input)),
    retrieveIntent: (id) => timed("retrieve_intent", () => gateway.retrieveIntent(id)),
    recheckIntent: (recorded) => timed("retrieve_intent", () => gateway.recheckIntent(recorded)),
    cancelIntent: (id) => timed("cancel_intent", () => gateway.cancelIntent(id)),
    // A statement in the caller's transaction, not a call to the provider.
    cancelWithin: (trx, ids, now) => gateway.cancelWithin(trx, ids, now),
    refund: (input) => timed("refund", () => gateway.refund(input)),
  };
}
