/** @costline/analysis/testing: a fake OpenAI-compatible server for tests of hosts that configure a model. */
export { closedPortUrl, completion, type FakeModelServer, fakeModelServer, type Received, type Reply } from "./FakeModelServer.js"
