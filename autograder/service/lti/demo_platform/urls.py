from django.urls import path

from autograder.service.lti.demo_platform import views

urlpatterns = [
    path("", views.home),
    path("enter/<str:course_id>/<str:user>", views.enter),
    path("signin", views.signin),
    path("course/<str:course_id>/", views.course_page),
    path("course/<str:course_id>/add-tool", views.add_tool),
    path("launch/<int:link_id>", views.launch_link),
    path("authorize", views.authorize),
    path("deep-link-return/<str:hint>", views.deep_link_return),
    path("gradebook/<str:course_id>", views.gradebook),
    path("jwks", views.jwks),
    path("token", views.token),
    path("ags/<str:course_id>/lineitems", views.ags_lineitems),
    path("ags/<str:course_id>/lineitems/<int:item_id>", views.ags_lineitem),
    path("ags/<str:course_id>/lineitems/<int:item_id>/scores", views.ags_scores),
    path("ags/<str:course_id>/lineitems/<int:item_id>/results", views.ags_results),
    path("nrps/<str:course_id>", views.nrps),
]
