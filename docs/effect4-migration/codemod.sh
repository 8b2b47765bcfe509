#!/usr/bin/env bash
# Mechanical Effect 3 -> 4 renames over the given files. Probe quality: review the diff; tsc finds the rest.
set -euo pipefail
perl -0777 -pi -e '
  # Context.Tag("k")<Self, Shape>() -> Context.Service<Self, Shape>()("k")
  s/Context\.Tag\(("[^"]+")\)<(.*?)>\(\)/Context.Service<$2>()($1)/gs;
  s/\bContext\.Tag</Context.Key</g;
  s/\.unsafeMap\b/.mapUnsafe/g; s/Context\.unsafeMake\b/Context.makeUnsafe/g;
  s/Effect\.zipRight\b/Effect.andThen/g;
  s/Effect\.catchAllCause\b/Effect.catchCause/g; s/Effect\.catchAllDefect\b/Effect.catchDefect/g;
  s/Effect\.catchAll\b/Effect.catch/g;
  s/Effect\.either\b/Effect.result/g;
  s/Effect\.async\b/Effect.callback/g;
  s/Effect\.forkDaemon\b/Effect.forkDetach/g; s/Effect\.fork\b/Effect.forkChild/g;
  # Either -> Result
  s/\bEither\.Either</Result.Result</g;
  s/\bEither\.right\b/Result.succeed/g; s/\bEither\.left\b/Result.fail/g;
  s/\bEither\.mapLeft\b/Result.mapError/g; s/\bEither\.isLeft\b/Result.isFailure/g; s/\bEither\.isRight\b/Result.isSuccess/g;
  s/\bEither\.void\b/Result.succeed(undefined)/g; s/\bEither\.isEither\b/Result.isResult/g;
  s/\bEither\.(map|flatMap|match|getOrElse|getOrThrow|getOrThrowWith|getOrUndefined|all|gen|andThen|orElse|flip|mapBoth|merge|liftPredicate|fromOption)\b/Result.$1/g;
  s/(import \{[^}]*?)\bEither\b/$1Result/g;
  # Schema decoding
  s/Schema\.decodeUnknownEither\b/Schema.decodeUnknownResult/g; s/Schema\.decodeEither\b/Schema.decodeResult/g;
  s/Schema\.encodeEither\b/Schema.encodeResult/g; s/Schema\.encodeUnknownEither\b/Schema.encodeUnknownResult/g;
  s/Schema\.validateEither\b/Schema.decodeUnknownResult/g;
  # refined built-ins
  s/Schema\.UUID\b/Schema.String.check(Schema.isUUID())/g;
  s/Schema\.NonNegativeInt\b/Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))/g;
  s/Schema\.DateFromSelf\b/Schema.Date/g;
  # v3 filters are pipeable functions; v4 filters are checks applied with Schema.check
  s/Schema\.(minLength|maxLength|pattern|minItems|maxItems|greaterThanOrEqualTo|lessThanOrEqualTo|greaterThan|lessThan|between|int|nonNegative|positive)(\((?:[^()]++|(?-1))*\))/"Schema.check(Schema." . {minLength=>"isMinLength",maxLength=>"isMaxLength",pattern=>"isPattern",minItems=>"isMinLength",maxItems=>"isMaxLength",greaterThanOrEqualTo=>"isGreaterThanOrEqualTo",lessThanOrEqualTo=>"isLessThanOrEqualTo",greaterThan=>"isGreaterThan",lessThan=>"isLessThan",between=>"isBetween",int=>"isInt",nonNegative=>"isGreaterThanOrEqualTo",positive=>"isGreaterThan"}->{$1} . (($1 eq "nonNegative" || $1 eq "positive") ? "(0)" : $2) . ")"/ge;
  s/Schema\.trimmed\(\)/Schema.check(Schema.isTrimmed())/g; s/Schema\.nonEmptyString\(\)/Schema.check(Schema.isNonEmpty())/g;
  s/Schema\.finite\(\)/Schema.check(Schema.isFinite())/g;
  s/Schema\.filter(\((?:[^()]++|(?-1))*\))/"Schema.check(Schema.makeFilter" . $1 . ")"/ge;
  s/Schema\.Literal\(\.\.\.(\w+)\)/Schema.Literals($1)/g;
  s/\.annotations\(/.annotate(/g;
  s/message: \(\) =>\s*/message: /g;
  # Either values: _tag Left/Right and .left/.right fields (Result: Failure/Success, .failure/.success)
  s/_tag === "Left"/_tag === "Failure"/g; s/_tag === "Right"/_tag === "Success"/g;
  s/_tag !== "Left"/_tag !== "Failure"/g; s/_tag !== "Right"/_tag !== "Success"/g;
  s/\.right\b/.success/g; s/\.left\b/.failure/g; s/\bonLeft:/onFailure:/g; s/\bonRight:/onSuccess:/g;
  # DateTime / Order / Duration renames
  s/DateTime\.(lessThan|greaterThan|lessThanOrEqualTo|greaterThanOrEqualTo|between)\b/"DateTime.is" . ucfirst($1)/ge;
  s/DateTime\.unsafeMake\b/DateTime.makeUnsafe/g; s/DateTime\.unsafeNow\b/DateTime.nowUnsafe/g; s/\.epochMillis\b/.epochMilliseconds/g;
  s/Order\.string\b/Order.String/g; s/Order\.number\b/Order.Number/g; s/Order\.boolean\b/Order.Boolean/g; s/Order\.bigint\b/Order.BigInt/g;
  s/Duration\.DurationInput\b/Duration.Input/g;
  s/Chunk\.unsafeFromArray\b/Chunk.fromArrayUnsafe/g; s/Option\.fromNullable\b/Option.fromNullishOr/g; s/Option\.getOrNull\b/Option.getOrNull/g;
  # Schema types and constructors
  s/Schema\.Schema<([^<>,]+(?:<[^<>]*>)?\s*,)/Schema.Codec<$1/g;
  s/disableValidation: true/disableChecks: true/g;
  s/Schema\.Record\(\{\s*key:\s*((?:[^(){},]++|(\((?:[^()]++|(?-1))*\)))+),\s*value:\s*((?:[^(){}]++|(\((?:[^()]++|(?-1))*\)))+?)\s*\}\)/Schema.Record($1, $3)/g;
  s/Schema\.TemplateLiteral\((?!\[)((?:[^()]++|(\((?:[^()]++|(?-1))*\)))*)\)/Schema.TemplateLiteral([$1])/g;
  s/\bEffect\.Effect\.(Success|Error)</Effect.$1</g; s/\bEffect\.Effect\.Context</Effect.Services</g;
  # Stream: Chunk-based operators became Array-based
  s/Stream\.mapChunksEffect\b/Stream.mapArrayEffect/g; s/Stream\.mapChunks\b/Stream.mapArray/g; s/Stream\.runForEachChunk\b/Stream.runForEachArray/g;
  # Config / Fiber / Duration / Effect misc
  s/Config\.redacted\(/Config.Redacted(/g; s/Fiber\.RuntimeFiber\b/Fiber.Fiber/g; s/Duration\.decode\(/Duration.fromInputUnsafe(/g;
  s/(import \{[^}]*?)\bConfigError\b,?\s*/$1/g; s/\bConfigError\.ConfigError\b/Config.ConfigError/g;
  s/Schema\.DateTimeUtcFromSelf\b/Schema.DateTimeUtc/g; s/Schema\.Schema\.(Any|All)\b/Schema.Top/g;
  s/import type \{ Layer \} from "effect\/Layer"/import type { Layer } from "effect"/g;
  # Schema.Union(A, B) -> Schema.Union([A, B]); Schema.Literal("a", "b") -> Schema.Literals(["a", "b"])
  s/Schema\.Union\((?!\s*\[)((?:[^()]++|(\((?:[^()]++|(?-1))*\)))*)\)/Schema.Union([$1])/g;
  s/Schema\.Literal\(\s*((?:"[^"]*"\s*,\s*)+"[^"]*")\s*,?\s*\)/Schema.Literals([$1])/g;
' "$@"
