"""utf8guard.django.Utf8GuardMiddleware in Django's test Client (sync and
async), configured from settings.UTF8GUARD: refused before the view, the
body checked as the view reads it, exemptions, and settings errors."""

import asyncio
import logging

import pytest

django = pytest.importorskip("django")
from django.conf import settings  # noqa: E402

SEEN = []  # what the views received

if not settings.configured:
    settings.configure(
        DEBUG=False, SECRET_KEY="utf8guard-tests", ALLOWED_HOSTS=["testserver"],
        ROOT_URLCONF=__name__, MIDDLEWARE=["utf8guard.django.Utf8GuardMiddleware"],
        UTF8GUARD={"exempt": ["/webhook/"], "buffer": 1024, "routes": {"/latin/": {"text": None}}},
        ADMINS=[("Admin", "admin@example.com")],
        EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend")
    django.setup()

from django.core import mail  # noqa: E402
from django.core.exceptions import ImproperlyConfigured  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import AsyncClient, Client, override_settings  # noqa: E402
from django.urls import re_path  # noqa: E402

import utf8guard  # noqa: E402
from utf8guard.django import Utf8GuardMiddleware  # noqa: E402


def body_view(request):
    SEEN.append(request.body)
    return HttpResponse("ok")


def post_view(request):
    SEEN.append(dict(request.POST))
    return HttpResponse("ok")


def swallowing_view(request):
    try:
        SEEN.append(request.body)
    except utf8guard.RequestRejected:
        pass
    return HttpResponse("answered anyway")


@utf8guard.exempt
def raw_view(request):
    SEEN.append(request.body)
    return HttpResponse("ok")


urlpatterns = [re_path(r"^post$", post_view), re_path(r"^swallow$", swallowing_view),
               re_path(r"^raw$", raw_view), re_path(r"", body_view)]


@pytest.fixture(autouse=True)
def fresh():
    SEEN.clear()
    mail.outbox = []


def problem(response):
    assert response.status_code == 400, response.content
    assert response["Content-Type"] == "application/problem+json"
    return response.json()


def test_refused_before_the_view():
    client = Client()
    assert problem(client.get("/a%C0%AFb"))["part"] == "path"
    assert problem(client.get("/", {"q": "\u202e"}))["part"] == "query"
    assert problem(client.get("/", HTTP_X_TEXT="\x00"))["part"] == "header"
    assert problem(client.post("/", b"caf\xe9", content_type="text/plain"))["part"] == "body"
    assert problem(client.post("/post", b"q=%C0%AF",
                               content_type="application/x-www-form-urlencoded"))["part"] == "body"
    assert SEEN == [] and mail.outbox == []


def test_long_bodies_are_checked_as_the_view_reads_them():
    client = Client()
    for view in ("/", "/post", "/swallow"):
        body = b"q=" + b"a" * 5000 + b"%C0%AF"
        assert problem(client.post(view, body, content_type="application/x-www-form-urlencoded"))
    assert SEEN == []  # no view got the bytes, even one that caught the refusal
    body = "q=" + "é" * 3000
    response = client.post("/post", body.encode(), content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200 and SEEN == [{"q": ["é" * 3000]}]


def not_found(request, exception):
    SEEN.append(request.path)
    return HttpResponse(f"no page at {request.path}", status=404)


class Unrouted:
    """A URLconf with no catch-all pattern and a project's own 404 view,
    which reads (and echoes) the path."""

    urlpatterns = [re_path(r"^post$", post_view), re_path(r"^raw$", raw_view)]
    handler404 = staticmethod(not_found)


def test_a_path_no_pattern_matches_is_refused_before_the_404_view():
    with override_settings(ROOT_URLCONF=Unrouted):
        client = Client()
        assert problem(client.get("/a%C0%AFb"))["part"] == "path"
        assert problem(client.get("/nothing", {"q": "\u202e"}))["part"] == "query"
        assert problem(client.get("/nothing", HTTP_X_TEXT="\x00"))["part"] == "header"
        assert SEEN == []  # the 404 view never ran
        assert client.get("/caf%C3%A9").status_code == 404
        assert SEEN == ["/café"]
        # A view that is exempt still gets what its head holds.
        assert client.get("/raw", {"q": "\u202e"}).status_code == 200

        # (Django's AsyncClient writes a path as latin-1 text with no
        # raw_path, and a query as a header: the async way is shown with a
        # header.)
        async def run():
            return await AsyncClient().get("/nothing", HTTP_X_TEXT="\x00")

        assert problem(asyncio.run(run()))["part"] == "header"
        assert SEEN == ["/café", b""]


def test_detect_mode_logs_a_path_no_pattern_matches_once(caplog):
    with override_settings(ROOT_URLCONF=Unrouted, UTF8GUARD={"detect_only": True}):
        with caplog.at_level(logging.WARNING, logger="utf8guard"):
            response = Client().get("/a%C0%AFb", {"q": "\u202e"})
    assert response.status_code == 404  # Django's answer: the request went on
    assert len(SEEN) == 1  # the 404 view ran, once
    assert [r.utf8guard["part"] for r in caplog.records if r.name == "utf8guard"] == ["path"]


class Recorder:
    """A middleware after the guard: what it was given."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        SEEN.append(("middleware", request.get_full_path()))
        return self.get_response(request)


def test_the_middleware_after_the_guard_never_sees_a_refused_head():
    with override_settings(MIDDLEWARE=["utf8guard.django.Utf8GuardMiddleware",
                                       f"{__name__}.Recorder"]):
        client = Client()
        assert problem(client.get("/a%C0%AFb"))["part"] == "path"
        assert problem(client.get("/", {"q": "\u202e"}))["part"] == "query"
        assert problem(client.get("/post", HTTP_X_TEXT="\x00"))["part"] == "header"
        assert SEEN == []
        # A view marked exempt gets its request, through the middleware too.
        assert client.get("/raw", {"q": "\u202e"}).status_code == 200
        assert SEEN == [("middleware", "/raw?q=%E2%80%AE"), b""]


def test_exemptions():
    client = Client()
    assert client.post("/webhook/x", b"caf\xe9", content_type="text/plain").status_code == 200
    assert client.post("/raw", b"caf\xe9", content_type="text/plain").status_code == 200
    assert client.post("/latin/x", b"caf\xe9", content_type="text/plain").status_code == 200
    assert problem(client.post("/latin/x", b"{\"a\": \"\xe9\"}", content_type="application/json"))
    assert SEEN == [b"caf\xe9"] * 3


def test_async_client():
    async def run():
        client = AsyncClient()
        response = await client.post("/", b"caf\xe9", content_type="text/plain")
        assert problem(response)["part"] == "body"
        response = await client.post("/", "café".encode(), content_type="text/plain")
        assert response.status_code == 200

    asyncio.run(run())
    assert SEEN == ["café".encode()]


@pytest.mark.parametrize("config,words", [
    ({"headers": True}, "headers"), ({"detect_only": "no"}, "detect_only"),
    ({"logger": "myapp"}, "logger"), ({"nosuch": 1}, "nosuch"), ({"json": "nope"}, "json"),
    ("detect", "UTF8GUARD")])
def test_settings_errors_stop_django(config, words):
    with override_settings(UTF8GUARD=config):
        with pytest.raises(ImproperlyConfigured, match=words):
            Utf8GuardMiddleware(lambda request: None)
