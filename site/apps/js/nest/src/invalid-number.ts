// A path or query parameter that is not an integer: 400, text/plain,
// "invalid number". Nest's own exceptions answer in JSON, so this one has
// its exception filter, which writes through the adapter (Express or
// Fastify) it runs on.
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus } from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import * as c from "../../contract.js";

export class InvalidNumber extends HttpException {
  constructor() {
    super(c.INVALID_NUMBER, HttpStatus.BAD_REQUEST);
  }
}

@Catch(InvalidNumber)
export class InvalidNumberFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(_: InvalidNumber, host: ArgumentsHost): void {
    const adapter = this.adapterHost.httpAdapter;
    const response = host.switchToHttp().getResponse();
    adapter.setHeader(response, "content-type", "text/plain");
    adapter.reply(response, c.INVALID_NUMBER, HttpStatus.BAD_REQUEST);
  }
}
