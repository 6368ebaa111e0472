"""``kiosk images``: make what the kiosk serves from the curators' photographs (sizes for
``srcset``, webp, IIIF tiles), say what is stale; ``kiosk images import``: a museum's IIIF
manifest, downloaded beforehand, into a set's pictures. Never reaches the network."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import click

from kiosk.catalogue.crosscheck import image_problem
from kiosk.catalogue.pictures import DERIVED, flagged_files, read_made, uses_in
from kiosk.catalogue.read import claimed_key, read_bytes
from kiosk.catalogue.scan import scan
from kiosk.catalogue.schema import SetRecord, dotted
from kiosk.catalogue.store import read_inside
from kiosk.catalogue.validate import RECORD, validate_source
from kiosk.commands.check import content_folder
from kiosk.games.core import plural
from kiosk.images import derive, importer


@dataclass
class Pictures:
    """Every picture the content's set files name, and the set files that cannot be read."""

    srcs: list[str] = field(default_factory=list)
    covered: frozenset[str] = frozenset()
    named_in: dict[str, str] = field(default_factory=dict)  # src → where it is first named
    unreadable: list[str] = field(default_factory=list)  # "path: why", for each set file


def _unreadable(first: str, more: int = 0) -> str:
    """A set file that cannot be read: its first problem, and how many more there are."""
    said = f"; `kiosk check` says {more} more problem{'s' if more > 1 else ''}" if more else ""
    return f"{first} (this set file cannot be read, so its pictures are not made{said})"


def pictures_in(content_dir: Path, label: str) -> Pictures:
    """The pictures every set file the schema accepts names (held back or not), and the flagged."""
    found = Pictures()
    records: list[SetRecord] = []
    walked = scan(str(content_dir))
    for rel in sorted(walked.markdown):
        shown = f"{label}/{rel}"
        try:
            source = read_bytes(shown, *read_inside(content_dir, rel))
        except OSError as exc:
            if rel.startswith("sets/"):
                found.unreadable.append(_unreadable(f"{shown}: {exc.strerror or exc}"))
            continue
        data = source.data
        kind = data.get("kind") if data else (claimed_key(source) or (None,))[0]
        if kind != "set" and not (kind is None and rel.startswith("sets/")):
            continue
        try:
            record = RECORD.validate_python(data) if data is not None else None
        except ValueError:
            record = None
        if not isinstance(record, SetRecord):
            problems = sorted(validate_source(source)[1] or source.problems)
            first = str(problems[0]) if problems else f"{shown}: could not be read"
            found.unreadable.append(_unreadable(first, max(0, len(problems) - 1)))
            continue
        records.append(record)
        for use in uses_in(record):
            if use.image.src not in found.named_in:
                found.named_in[use.image.src] = f"{shown}, {dotted(use.where)}"
                found.srcs.append(use.image.src)
    found.covered = flagged_files(records)
    return found


def _refused(content_dir: Path, srcs: list[str]) -> dict[str, str]:
    """Why each picture path is no file the kiosk may read (a missing file is said by the run)."""
    wrong = {}
    for src in srcs:
        why = image_problem(content_dir, src, frozenset({src}))  # the path's own shape
        if why is None and os.path.lexists(content_dir / src):
            why = image_problem(content_dir, src)  # a link, or out of the folder
        if why is not None:
            wrong[src] = why
    return wrong


def _made_words(content_dir: Path, src: str, covered: bool) -> str:
    made = read_made(content_dir, src)
    if made is None:  # pragma: no cover - just made
        return "made"
    widths = ", ".join(str(w) for w in made.widths)
    cover = "; covered: shown only behind its cover" if covered else ""
    return f"made ({widths} px wide, webp and jpg; IIIF tiles{cover})"


class ImagesGroup(click.Group):
    """``kiosk images [CONTENT_DIR]`` runs itself; ``kiosk images import ...`` the import."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """The one word that is not an option nor a subcommand is the content folder."""
        rest = list(args)
        for i, arg in enumerate(rest):
            if arg == "--" or arg in self.commands:
                break
            if not arg.startswith("-"):
                ctx.meta["kiosk.content_dir"] = rest.pop(i)
                break
        return super().parse_args(ctx, rest)

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return ["[OPTIONS] [CONTENT_DIR]", "|", "import MANIFEST --set SLUG [CONTENT_DIR]"]


@click.group(cls=ImagesGroup, invoke_without_command=True)
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Only say what is stale or missing (make nothing); exit 1 if anything is (for CI).",
)
@click.option("--prune", is_flag=True, help="Delete folders under derived/ that no picture names.")
@click.pass_context
def images(ctx: click.Context, check_only: bool, prune: bool) -> None:
    """Make the sizes and IIIF tiles the kiosk serves from every picture the sets name (in
    CONTENT_DIR/derived/), and say per picture what was made, current or wrong; exit 1 if a
    picture cannot be made or a set file cannot be read (--check: or anything is not made)."""
    if ctx.invoked_subcommand is not None:
        if "kiosk.content_dir" in ctx.meta:
            raise click.UsageError("give the content folder after the subcommand's arguments")
        return
    if check_only and prune:
        raise click.UsageError(
            "--check only says what is not made, and deletes nothing: drop --prune"
        )
    folder, label = content_folder(ctx.meta.get("kiosk.content_dir"))
    found = pictures_in(folder, label)
    refused = _refused(folder, found.srcs)
    usable = [src for src in found.srcs if src not in refused]
    report = derive.run(folder, usable, found.covered, check_only, named=found.srcs)
    failed = {**refused, **dict(report.failed)}
    lines = []
    for src in report.made:
        lines.append(f"{label}/{src}: {_made_words(folder, src, src in found.covered)}")
    lines += [f"{label}/{src}: current" for src in report.current]
    lines += [
        f"{label}/{src}: stale: the file, or its flag, changed since its copies were made"
        for src in report.stale
    ]
    lines += [f"{label}/{src}: missing: not made yet" for src in report.missing]
    lines += [
        f"{label}/{src}: {why} (named in {found.named_in[src]})" for src, why in failed.items()
    ]
    click.echo("\n".join(sorted(lines)) if lines else "no set names a picture")
    # an unread set file may name pictures too: no copies (and covers) are pruned then
    sure = not found.unreadable
    pruned = derive.prune(folder, report.orphans) if prune and sure else []
    for name in report.orphans:
        if name in pruned:
            what = "deleted"
        elif sure:
            what = "no picture names it now (--prune deletes it)"
        else:
            what = "no set file that can be read names it (kept until every set file is read)"
        click.echo(f"{label}/{DERIVED}/{name}: orphan: {what}")
    for why in found.unreadable:
        click.echo(why)
    counts = [
        plural(len(found.srcs), "picture"),
        f"{len(report.made)} made" if not check_only else None,
        f"{len(report.current)} current",
        f"{len(report.stale)} stale" if report.stale else None,
        f"{len(report.missing)} missing" if report.missing else None,
        f"{len(failed)} cannot be made" if failed else None,
        plural(len(report.orphans), "orphan") if report.orphans else None,
        plural(len(found.unreadable), "set file") + " not read" if found.unreadable else None,
    ]
    click.echo(", ".join(c for c in counts if c))
    behind = check_only and (report.stale or report.missing)
    if failed or found.unreadable or behind:
        raise SystemExit(1)


@images.command("import")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.argument("content_dir", required=False)
@click.option("--set", "slug", help="The slug of the set whose pictures these are.")
@click.option(
    "--from",
    "download_dir",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where the images were downloaded (default: the manifest's folder).",
)
@click.option("--replace", is_flag=True, help="Replace the set's images: (and files of the name).")
@click.option("--credit", help="Who to credit where the manifest names no one.")
@click.option("--urls", is_flag=True, help="Only print the images' addresses, to download them.")
def import_manifest(
    manifest: Path,
    content_dir: str | None,
    slug: str | None,
    download_dir: Path | None,
    replace: bool,
    credit: str | None,
    urls: bool,
) -> None:
    """Import a IIIF Presentation 3 MANIFEST (a JSON file downloaded with its images) as the
    pictures of the set SLUG, offline: copies each canvas's image into images/<SLUG>/, writes
    the set's images: (alt from each canvas's label: review it), then makes their copies."""
    try:
        if urls:
            read, _ = importer.read_manifest(manifest)
            for url in importer.image_urls(read):
                click.echo(url)
            return
        if not slug:
            raise click.UsageError("say which set the pictures are of: --set <its slug>")
        folder, label = content_folder(content_dir)
        done = importer.import_manifest(
            folder, manifest, slug, download_dir, replace, credit, label
        )
    except importer.Refused as refused:
        for reason in refused.reasons:
            click.echo(reason, err=True)
        click.echo("nothing was imported", err=True)
        raise SystemExit(1) from None
    shown = f"{label}/{done.set_file.relative_to(folder).as_posix()}"
    verb = "replaced the images: of" if done.replaced else "added images: to"
    click.echo(f"{shown}: {verb} the set, {plural(len(done.pictures), 'picture')}")
    for picture in done.pictures:
        click.echo(f"{label}/{picture.src}: canvas {picture.canvas}, alt: {picture.alt!r}")
    click.echo(f"{shown}: {importer.REVIEW}")
    found = pictures_in(folder, label)
    report = derive.run(folder, [p.src for p in done.pictures], found.covered)
    for src in report.made:
        click.echo(f"{label}/{src}: {_made_words(folder, src, src in found.covered)}")
    for src, why in report.failed:
        click.echo(f"{label}/{src}: {why}")
    if report.failed:
        raise SystemExit(1)
