// The contract (../../../README.md) as one NestJS controller. It imports
// nothing of Express or Fastify: main-express.ts and main-fastify.ts run it
// on either adapter, unchanged.
import { Body, Controller, Get, Header, Headers, HttpCode, Param, Post, Query } from "@nestjs/common";
import * as c from "../../contract.js";
import { InvalidNumber } from "./invalid-number.js";
import { PersonDto } from "./person.dto.js";

@Controller()
export class AppController {
  @Get()
  @Header("content-type", "text/plain")
  ping(): string {
    return c.PING;
  }

  @Get("id/:id")
  @Header("content-type", "text/plain")
  @Header("x-powered-by", c.POWERED_BY)
  query(@Param("id") id: string, @Query("name") name: string): string {
    return `${id} ${name}`;
  }

  @Post("json")
  @HttpCode(200)
  echo(@Body() body: unknown): unknown {
    return body;
  }

  @Get("plaintext")
  @Header("content-type", "text/plain")
  plaintext(): string {
    return c.PLAINTEXT;
  }

  @Get("json")
  json(): object {
    return { message: c.PLAINTEXT };
  }

  @Get("sum/:a/:b")
  @Header("content-type", "text/plain")
  sum(@Param("a") a: string, @Param("b") b: string): string {
    const s = c.sum(a, b);
    if (s === undefined) throw new InvalidNumber();
    return s;
  }

  @Get("calc")
  @Header("content-type", "text/plain")
  calc(@Query("a") a: string, @Query("b") b: string, @Query("c") cc: string, @Query("d") d: string): string {
    const r = c.calc(a, b, cc, d);
    if (r === undefined) throw new InvalidNumber();
    return r;
  }

  @Post("api/users/:id")
  @HttpCode(200)
  api(
    @Param("id") id: string,
    @Headers("x-request-id") requestId: string | undefined,
    @Query("currency") currency: string | undefined,
    @Body() order: unknown,
  ): object {
    const n = c.parseInteger(id);
    if (n === undefined) throw new InvalidNumber();
    return c.reshape(n, requestId, currency, order);
  }

  // The global ValidationPipe (app.ts) checks the body against PersonDto
  // before this runs.
  @Post("validate")
  @HttpCode(200)
  validate(@Body() p: PersonDto): object {
    return c.person(p);
  }
}
