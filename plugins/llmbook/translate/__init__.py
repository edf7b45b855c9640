"""Translations proven like their source (issue 38): a page `x.en.md` beside `x.md` is the
English edition of it.

`layout`       which file translates which, and where each language's site lives;
`fingerprint`  what a page's translation must carry over (sections, code, numbers, parts);
`correspond`   a translation checked against its source, errors at the translation's lines;
`record`       what a translation was made from (its front matter) and what changed since;
`results`      the source's results given to its translation (the code runs once);
`book`         the build's view of all that (`Translations`), used by the site and adapters.
"""
