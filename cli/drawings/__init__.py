"""Each title's drawing in the terminal, a module named after the title (`-` written `_`), with
one function `draw(view, setting)` returning what `cli.tables.drawing` puts in its panel.

`cli.tables` finds a title's module here by the title's name alone, so no list names them; a
title with no module here (a new one, or one this client does not know) is drawn from its view
by `cli.tables.generic`. The engine knows nothing of these: its titles are drawn from the views
the API serves, as the pages draw them from the same views with each package's `table.js`."""
