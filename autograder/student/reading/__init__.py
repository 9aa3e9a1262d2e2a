"""What the student's code says, read the same way by the grader's hidden tests and by the public
checks: an exception's slips read in full (``slips``), the rules that name a mistake from torch's
words and the student's line (``error_hints``), and both in the grader's order, from a traceback's
text or from a live exception (``exceptions``); what the source of a definition shows
(``source_code``); and the order in which a module created its parameters, from the numbers they
hold (``creation_order``). Nothing here runs student code or knows a hidden input or an expected
value."""
