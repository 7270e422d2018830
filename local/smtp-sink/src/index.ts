export { startMailSink, type MailSink, type SinkEntry, type SinkOptions } from "./sink.js";
