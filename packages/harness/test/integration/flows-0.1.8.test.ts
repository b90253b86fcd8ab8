import { defineFlowSuite } from "../support/flow-suite.js";

// The 0.1.8 profile (STATE_IDLE, envelope usageMetadata, no policy engine) must work as well as the newer ones.
defineFlowSuite("0.1.8");
