import { describe, expect, it } from "vitest";
import { batchDefaults } from "./otel.ts";

describe("the batch span processor's defaults", () => {
  it("exports batches of 2048 from a queue of 8192 unless OTEL_BSP_* say otherwise", () => {
    expect(batchDefaults({})).toEqual({ maxExportBatchSize: 2048, maxQueueSize: 8192 });
    expect(batchDefaults({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "100" })).toEqual({ maxQueueSize: 8192 });
    expect(batchDefaults({ OTEL_BSP_MAX_QUEUE_SIZE: "300", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "100" })).toEqual({});
  });
});
