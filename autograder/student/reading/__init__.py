"""What an exception of the student's code says, read the same way by the grader's hidden tests
and by the public checks: the slips read in full (``slips``), the rules that name a mistake from
torch's words and the student's line (``error_hints``), and both in the grader's order, from a
traceback's text or from a live exception (``exceptions``). Nothing here runs student code or
knows a hidden input or an expected value."""
