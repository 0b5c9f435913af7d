/** `quire help`. */
export const USAGE = `Usage: quire [--home <dir>] <command> [options]

Commands:
  login --server <url> --token <token> --folder <dir>
                          connect to a server (token "-" reads it from stdin; QUIRE_TOKEN works too)
  logout                  forget the token
  spaces [--json]         list the spaces, [x] marking those that sync
  spaces enable <spaceId> sync a space
  spaces disable <spaceId>
                          stop syncing a space (its folder stays)
  sync --once             push local edits of every enabled space (into its working change
                          request "Edits from <this computer>"), then pull it, once
  sync --watch [--interval <time>]
                          sync at start, push every saved change, pull every 30s (or --interval,
                          e.g. 10s, 5m); runs until Ctrl-C / SIGTERM (the request in flight finishes)
  status [--json]         state (idle, syncing, paused, offline, error, conflicts, problems), pending
                          changes (edits saved since the last sync included), files not pushed and
                          why; per space: revision, pages, last sync, its working change request
  pause [--for <time>]    stop pushing local edits (e.g. --for 30m, 2h, 1d; default: until resume);
                          edits are still recorded and pushed after
  resume                  push local edits again
  confirm-deletes <spaceId>
                          let the next sync push deletions of more than half of a space's pages
  conflicts [--json]      pages edited on both sides that could not be merged (the local file
                          was kept), and edits that won over a deletion
  conflicts show <id> [--json]
                          the conflict's versions as one text with diff3 markers (mine, the last
                          synced base, theirs) around what both sides changed; --json: the three
  subject [<text> | --reset]
                          show or set the subject of new working change requests (default
                          "Edits from <this computer>"); the open one keeps its own
  resolve <id> --mine | --theirs | --merged <file>
                          settle a conflict: keep the local file and push it (mine), take the
                          server's version (theirs), or use <file> and push it (merged)
  retry [<id> | --all]    send a change the server refused again (listed by \`quire status\`;
                          all of them without an id), once its file or the server is fixed
  drop <id>               give up a refused change: the file stays, as a local-only edit that is
                          pushed again only once you edit it
  ui [--port <n>] [--open] the desktop app's screens in a browser, on 127.0.0.1 (a free port unless
                          --port), syncing in the background while logged in; prints the URL to
                          open (it holds a secret) first; --open opens it; runs until Ctrl-C
  cr list [--json]        change requests of the synced spaces (mirrored by sync), what waits
                          for you first (a review asked of you, changes asked on yours)
  cr show <space> <number> [--json]
                          one change request: status, reviewers, reviews, contributors
  cr diff <space> <number> [--json]
                          its changes page by page (added, removed, moved, renamed, line diffs
                          with the changed words marked), from the cache: works offline
  cr pin|unpin <space> <number>
                          keep a change request mirrored whatever its status (or stop)
  cr subject <space> <number> <text>
                          rename a change request (queued while offline, sent by the next sync)
  cr ready|archive <space> <number>
                          mark a draft ready for review, or archive it unmerged (queued offline)
  cr review <space> <number> --approve | --request-changes [--comment <text>]
                          approve or request changes, with an optional comment (needs the server)
  cr reviewers <space> <number> [--add <a,b>] [--remove <c>]
                          list the requested reviewers, or ask and unask people (user ids, emails
                          or names of the organization's members)
  cr update|merge <space> <number>
                          bring main into it, or merge it into main (needs the server); conflicts
                          are listed with their pages (exit 2)
  cr pdf <space> <number> [--page <id>] [--out <file>]
                          save it (or one page) as a PDF: to <file>, or a fresh name in ~/Downloads
  cr comments <space> <number|-> [--page <id|path>] [--json]
                          comment threads, from the cache; '-' for the space's own comments;
                          changes not sent yet are marked (pending), refused ones with '!'
  cr comment <space> <number|-> [--page <id|path>] --body <text|->
                          write a comment ('--body -' reads stdin); queued, sent by the next sync
  cr reply <space> <number|-> <commentId> --body <text|->
  cr edit-comment <space> <number|-> <commentId> [<replyId>] --body <text|->
  cr delete-comment <space> <number|-> <commentId> [<replyId>]
  cr react <space> <number|-> <commentId> [<replyId>] <emoji>
  cr unreact <space> <number|-> <commentId> [<replyId>] <emoji>
  cr resolve|reopen <space> <number|-> <commentId>
                          queued like a comment, offline too; ids may be local-<n> until sent
  cr checkout <space> <number>
                          make a change request a folder, <space> (change requests)/<number>
                          <subject>/ beside the space's: edits there go to it, others' arrive
  cr checkouts [--json]   the checked-out change requests, their folders and unsent edits
  import <folder> --space <spaceId> [--subject <text>] [--merge]
                          bring a Git Sync folder (SUMMARY.md, README.md, .gitbook/assets,
                          .gitbook.yaml) into a space as one change request, open for review
                          (--merge merges it); problems are reported per file
  import <url> --space <spaceId> [--ref <ref>] [--merge]
                          the server fetches a Git Sync repository (http/https) into the space
                          (default ref refs/heads/main): a change request open for review, or
                          the space updated with --merge
  help                    show this help

--home <dir> holds the cache, the token and the logs (default: $QUIRE_HOME, else ~/.quire).
Exit codes: 0 ok, 1 failure, 2 usage error or a sync that left conflicts or problems.`;
