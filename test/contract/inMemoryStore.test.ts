import { InMemoryStore } from "../../src/stores/memory/memoryStore.js";
import { runStoreContract } from "./memoryStore.contract.js";

runStoreContract("InMemoryStore", async () => ({ store: new InMemoryStore(), cleanup: async () => undefined }), { persistent: false });
