"""Events (tournaments) as data: their log's entries, seating rounds and standings, pure.

An event is a log of its own, hash-chained like a game's (`engine.log.chain`) and signed the
same way: `event-created`, then `round-seated`, `result-recorded`, `player-withdrawn` entries,
and `event-finished` once every round's results are in, which reveals the seed the seating was
drawn from (docs/events.md). Everything here is a function of those entries: `engine.events.
seating` seats a round, `engine.events.standings` ranks the players, and `engine.events.
evidence` checks an event's export offline. Like the rest of the engine, no I/O.
"""
