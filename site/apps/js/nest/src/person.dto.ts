// The validate scenario's schema as a class-validator DTO, the way NestJS's
// validation guide shows it.
import { IsEmail, IsInt, IsString, Length, Max, Min } from "class-validator";

export class PersonDto {
  @IsString()
  @Length(1, 64)
  name: string;

  @IsEmail()
  email: string;

  @IsInt()
  @Min(1)
  @Max(150)
  age: number;
}
