/**
 * Terms and phrases against `_raw` segments on events made for their edges:
 * boundaries at either end, breakers of both kinds, a phrase found a second time after
 * a first occurrence inside a word, and case folding beyond ASCII. Expectations are
 * worked out by hand from Splunk's breaker lists and Unicode's simple case folding
 * (CaseFolding.txt: U+212A KELVIN SIGN folds to k, U+017F LONG S to s); rows come newest
 * first.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { ids, openEvents } from "./events.js"

const RAWS = [
  "Connection Refused by upstream",
  "reconnection refused",
  "connection refusedly",
  "[connection refused]",
  "CONNECTION REFUSED\n",
  "xconnection refused, then connection refused",
  '{"msg":"connection refused"}',
  "connection_refused",
  "x~refused",
  "\u212Aelvin scale",
  "\u017Ftatus ok",
  "\u00C4RGER im b\u00FCro",
  "\u00C4rgernis",
  "REFUSED\tat the gate"
]

const chdb = await openEvents(
  RAWS.map((raw, i) => ({ raw, host: "h", fields: { id: `s${i + 1}` } }))
)

const cases: ReadonlyArray<readonly [rule: string, spl: string, expected: ReadonlyArray<string>]> =
  [
    [
      "a phrase matches between breakers or the ends, in any case, and not inside a longer word",
      '"connection refused"',
      ["s7", "s6", "s5", "s4", "s1"]
    ],
    [
      "a phrase keeps its own breaker: an underscore is not a space",
      '"connection_refused"',
      ["s8"]
    ],
    [
      'a term stands between breakers (a tab, `_`, `[`, `"`), not after `~`, which is no breaker',
      "refused",
      ["s14", "s8", "s7", "s6", "s5", "s4", "s2", "s1"]
    ],
    [
      "a prefix term matches at a segment's start, whatever follows within the major segment",
      "refu*",
      ["s14", "s8", "s7", "s6", "s5", "s4", "s3", "s2", "s1"]
    ],
    ["the KELVIN SIGN folds to k", "kelvin", ["s10"]],
    ["the KELVIN SIGN folds to k, an upper-case K too", "KELVIN", ["s10"]],
    ["LONG S folds to s", "status", ["s11"]],
    ["non-ASCII letters fold: ärger matches ÄRGER, not Ärgernis", "\u00E4rger", ["s12"]],
    ["non-ASCII letters fold: BÜRO matches büro", "B\u00DCRO", ["s12"]]
  ]

layer(SplCompilerLive)("SPL terms and phrases", (it) => {
  for (const [rule, spl, expected] of cases)
    it.effect(`${rule}: ${spl}`, () =>
      Effect.map(ids(chdb, spl), (found) => expect(found).toEqual(expected))
    )
})
