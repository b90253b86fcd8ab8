import { defineFlowSuite } from "../support/flow-suite.js";

defineFlowSuite("0.1.14");
