"""The FastAPI app factory: ``create_app(settings)``.

One router per resource; the match service (rooms in memory, events in the database) lives on
``app.state.service`` and resumes unfinished matches at start-up.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException

from .crews import routes as crew_routes
from .crews import tables as crew_tables
from .crews.service import CrewService
from .deps import request_lang
from .history import routes as matches
from .history import stats_routes as stats
from .pages import routes as pages
from .pages.head import HeadAsGet
from .pages.release import content_security_policy
from .pages.routes import STATIC
from .play import routes as live
from .rooms import routes as rooms
from .service import MatchService
from .settings import Settings
from .setup import routes as meta
from .storage.db import open_database
from .words import refusals as E
from .words.invalid import invalid
from .words.refusals import ErrorCode, RoomError, unavailable

#: Sent with every response: no framing by other sites, no sniffing, a strict script policy
#: (a page's own adds the hashes of its inline script and style: see ``release.POLICY``).
#: ``connect-src 'self'`` also covers the live table's WebSocket (same host, ws: or wss:), so
#: a page can open no connection to any other host.
SECURITY_HEADERS = {
    "Content-Security-Policy": content_security_policy(),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


def guarded_lookup(request: Request) -> None:
    """Refuse a request about a table from a network that guessed too many table codes."""
    if "code" in request.path_params:
        service: MatchService = request.app.state.service
        service.refuse_guesses(request.client.host if request.client else None)


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new application on the configured database (migrated to the newest schema)."""
    settings = settings or Settings()
    sessions = open_database(settings.sqlalchemy_url(), settings.sqlite_synchronous)
    service = MatchService(settings, sessions)
    crews = CrewService(settings, sessions, service.room)
    # A crew hears of a match that ends here, and keeps its table's next match.
    service.play.finished = crews.match_over
    service.next.carried.append(crew_tables.carry)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The pages' generated files (bundles, compressed bodies), made before the first visit.
        app.state.release = await asyncio.to_thread(pages.release)
        await service.startup()
        await crews.startup()
        yield
        await crews.shutdown()
        await service.shutdown()
        sessions.kw["bind"].dispose()

    app = FastAPI(
        title="Ship, Captain and Crew",
        lifespan=lifespan,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.settings = settings
    app.state.service = service
    app.state.crews = crews

    # Every refusal is one sentence in the request's language (see deps.request_lang).
    def answer(request: Request, err: RoomError) -> JSONResponse:
        return JSONResponse(err.body(request_lang(request)), status_code=err.status)

    @app.exception_handler(RoomError)
    async def _room_error(request: Request, exc: RoomError) -> JSONResponse:
        if exc.code is ErrorCode.NOT_FOUND and "code" in request.path_params:
            # A table code that does not exist: counted against the network that tried it.
            await service.missed(request.client.host if request.client else None)
        return answer(request, exc)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return answer(request, invalid(exc.errors()))

    @app.exception_handler(DBAPIError)
    async def _db_down(request: Request, exc: DBAPIError) -> JSONResponse:
        # Nothing was committed (each change is one transaction): say so, and to try again.
        return answer(request, unavailable(E.DATABASE))

    @app.exception_handler(HTTPException)
    async def _http(request: Request, exc: HTTPException) -> Response:
        if exc.status_code == 404:
            err = RoomError(ErrorCode.NOT_FOUND, E.NO_SUCH_PATH, 404)
        elif exc.status_code == 405:
            err = RoomError(ErrorCode.INVALID, E.NO_SUCH_METHOD, 405, method=request.method)
        else:
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        return JSONResponse(err.body(request_lang(request)), err.status, headers=exc.headers)

    @app.get("/healthz", tags=["ops"])
    async def healthz() -> dict[str, object]:
        """Liveness: the process answers (restart it if this fails)."""
        return {"status": "ok", "pid": os.getpid()}

    @app.get("/readyz", tags=["ops"])
    async def readyz() -> JSONResponse:
        """Readiness: the database answers a query and, scaled out, Redis answers a ping."""

        def db_ok() -> bool:
            try:
                with sessions.kw["bind"].connect() as conn:
                    conn.execute(text("SELECT 1"))
                return True
            except Exception:
                return False

        up = {"database": await asyncio.to_thread(db_ok)}
        if service.relay is not None:
            # Both a ping and a live subscription: a worker that cannot hear the others is not
            # ready to take moves (it refuses them until the relay is back).
            up["redis"] = await service.relay.ping() and service.relay.up
        checks = {name: "ok" if ok else "unavailable" for name, ok in up.items()}
        ready = all(up.values())
        return JSONResponse(
            {"status": "ready" if ready else "not ready", "checks": checks, "pid": os.getpid()},
            status_code=200 if ready else 503,
        )

    @app.middleware("http")
    async def _headers(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        response = await call_next(request)
        for k, v in SECURITY_HEADERS.items():
            response.headers.setdefault(k, v)
        return response

    app.add_middleware(HeadAsGet)  # a HEAD gets the very headers a GET gets
    if settings.forwarded_allow_ips:
        # Outermost: behind the proxies named, every route sees the client the proxy names
        # (its address counts for the limits, its scheme for the links).  From anyone else
        # X-Forwarded-For is an ordinary header and means nothing (scc serve tells uvicorn
        # to trust nobody itself, where its default trusts loopback).
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.forwarded_allow_ips)
    for module in (rooms, matches, stats, meta, live, pages):
        # Every route that looks a table up by its code: a network that guessed too many
        # codes is refused at once (see limits.Misses).
        guard = [Depends(guarded_lookup)] if module in (rooms, matches) else []
        app.include_router(module.router, dependencies=guard)
    app.include_router(crew_routes.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def create_app_from_env() -> FastAPI:
    """The app configured by the environment alone (``SCC_*``): what each worker process of
    ``scc serve --workers K`` builds, since uvicorn starts workers from an import string."""
    from . import heap
    from .connections import guard

    settings = Settings()
    application = create_app(settings)
    heap.install(settings.gc_sweep_seconds)  # a server process (see cli/commands/serve.py)
    guard.configure(settings)  # its HTTP connections' limits (scc serve passes the protocol)
    return application
