"""Open data: a season's rated matches published as files anyone may download and read
without the platform (docs/open-data.md).

`record` makes one match's public record (its replay v2 with each seat's view and the
bot versions, notes only where their owners opted in) and its rows of the per-hand table;
`export` streams a season (or a month of it) from the database into compressed JSON
lines, a Parquet table, a schema, a licence and SHA-256 checksums, in bounded memory;
`played` plays a season through the real match runner and stores it, for the tests and
`arena bench export`.
"""
