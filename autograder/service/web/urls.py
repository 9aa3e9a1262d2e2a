from django.urls import path

from autograder.service.web import api, instructor, lti, operations, student

urlpatterns = [
    path("", student.home),
    path("signin/<str:signed>", student.signin),
    path("signout", student.signout),
    path("assignments/<str:assignment_id>", student.assignment),
    path("assignments/<str:assignment_id>/upload", student.upload),
    path("submissions/<int:submission_id>", student.submission_page),
    path("submissions/<int:submission_id>/feedback", student.submission_feedback),
    path("token", student.token),
    path("client/submit.py", api.client),
    path("api/v1/submissions", api.submissions),
    path("api/v1/submissions/<int:submission_id>", api.status),
    path("instructor/", instructor.dashboard),
    path("instructor/policies/<str:assignment_id>", instructor.policy),
    path("instructor/class", instructor.class_table),
    path("instructor/grades.csv", instructor.grades_csv),
    path("instructor/students/<str:student_id>", instructor.student),
    path("instructor/students/<str:student_id>/adjust", instructor.adjust),
    path("instructor/regrade", instructor.regrade),
    path("instructor/report", instructor.report),
    path("instructor/similarity", instructor.similarity),
    path("instructor/lti/retry", instructor.retry_passbacks),
    path("instructor/lti/roster", instructor.fetch_class_lists),
    path("lti/login", lti.login),
    path("lti/launch", lti.launch),
    path("lti/jwks", lti.jwks),
    path("healthz", operations.healthz),
    path("readyz", operations.readyz),
    path("metrics", operations.prometheus),
]
