// What both entry points share: the module, the global validation pipe with
// the contract's 400, the invalid-number filter and the listen address.
import "reflect-metadata";
import { BadRequestException, INestApplication, Module, ValidationPipe } from "@nestjs/common";
import { HttpAdapterHost } from "@nestjs/core";
import * as c from "../../contract.js";
import { AppController } from "./app.controller.js";
import { InvalidNumberFilter } from "./invalid-number.js";

@Module({ controllers: [AppController] })
export class AppModule {}

/** setUp adds what every adapter's app gets the same way, then listens. */
export async function setUp(app: INestApplication): Promise<void> {
  app.useGlobalFilters(new InvalidNumberFilter(app.get(HttpAdapterHost)));
  app.useGlobalPipes(
    new ValidationPipe({
      whitelist: true,
      exceptionFactory: () => new BadRequestException(c.VALIDATION_FAILED),
    }),
  );
  await app.listen(c.port, c.hostname);
}
