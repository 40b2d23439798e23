export { apiRoute } from "./api-route";
export { created, accepted, Reply } from "./reply";
export { MiB } from "./body";
