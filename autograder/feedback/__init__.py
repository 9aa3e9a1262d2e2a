"""What people read: the student's feedback page and the instructor's class report."""
