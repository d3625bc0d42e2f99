/** The slice of a pino-style logger background work uses (Fastify's app.log fits). */
export interface Log {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
