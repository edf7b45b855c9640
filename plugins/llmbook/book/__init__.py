"""The book's apparatus: numbered sections, figures, tables and equations, and the references
between them, checked like the book's numbers.

- `syntax`: how a reference, a caption and a labelled equation are written (read by the number
  coverage too, so a reference is never counted twice);
- `parts`: what one page numbers (its chapter, sections, captions, equations), from its model;
- `index`: the whole book's parts, and every reference checked against them;
- `render`: what a page's render makes of them (numbered captions and equations, link titles).
"""
