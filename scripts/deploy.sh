#!/usr/bin/env bash
# A public server in one command: on a fresh Debian or Ubuntu server whose domain points at it,
#
#   sudo bash scripts/deploy.sh --domain pub.example.org [--email you@example.org]
#
# installs Caddy from the distribution in front of `scc serve` (certificates from Let's Encrypt,
# renewed by Caddy itself; http:// redirected to https://; HTTP/2 and HTTP/3; WebSockets
# proxied; HSTS), a service user `scc` with its data in /var/lib/shipcaptaincrew, the app in
# /opt/shipcaptaincrew (from this clone, with exactly the locked packages: scripts/setup.sh run),
# systemd units for the server (restart on failure, logs in the journal, hardened: it may write
# its data directory only) and a nightly backup timer (scc backup, the newest 14 kept in
# /var/backups/shipcaptaincrew).  Running it again upgrades in place and keeps the data.
#
#   --workers K        the scaled form: K workers on PostgreSQL and Redis from the distribution
#   --port P           the port scc serve listens on behind Caddy, on loopback (default 8654)
#   --uninstall        remove the units and the Caddy site; the data and the backups stay
#   --dry-run --root DIR
#                      write the files it would install under DIR, at their system paths
#                      (DIR/etc/caddy/Caddyfile, DIR/etc/systemd/system/...), and print the
#                      commands it would run; nothing else on the machine changes
#   --root DIR         (without --dry-run) install under DIR and run the commands: what the
#                      tests do in a scratch root with stand-ins for apt-get and systemctl
#
# docs/deployment.md ("Put it on the internet") says what to do before (DNS, firewall) and after.
set -euo pipefail

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }
die() { echo "deploy.sh: $*" >&2; exit 2; }

domain="" email="" workers=1 port=8654 root="" dry=0 uninstall=0
while [ $# -gt 0 ]; do
  case "$1" in
    --domain) domain=${2:-}; shift 2 ;;
    --email) email=${2:-}; shift 2 ;;
    --workers) workers=${2:-}; shift 2 ;;
    --port) port=${2:-}; shift 2 ;;
    --root) root=${2:-}; shift 2 ;;
    --dry-run) dry=1; shift ;;
    --uninstall) uninstall=1; shift ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done
if [ "$uninstall" -eq 0 ]; then
  [ -n "$domain" ] || die "--domain is required: the name that points at this server (pub.example.org)"
  [[ "$domain" =~ ^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)+$ ]] \
    || die "--domain '$domain' is not a host name (pub.example.org)"
fi
[[ "$workers" =~ ^[1-9][0-9]*$ ]] || die "--workers must be a whole number from 1, not '$workers'"
[[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1024 ] && [ "$port" -le 65535 ] \
  || die "--port must be from 1024 to 65535, not '$port'"
[ -z "$email" ] || [[ "$email" =~ ^[^@[:space:]]+@[^@[:space:]]+$ ]] || die "--email '$email' is not an address"
if [ "$dry" -eq 1 ]; then
  [ -n "$root" ] || die "--dry-run needs --root DIR: where to write the files it would install"
fi
if [ -n "$root" ]; then
  mkdir -p "$root"
  root=$(cd "$root" && pwd)
elif [ "$(id -u)" -ne 0 ]; then
  die "run as root: sudo bash scripts/deploy.sh --domain $domain"
fi

src=$(cd "$(dirname "$0")/.." && pwd)
app=/opt/shipcaptaincrew data=/var/lib/shipcaptaincrew backups=/var/backups/shipcaptaincrew
conf=/etc/shipcaptaincrew units=/etc/systemd/system user=scc
service=shipcaptaincrew

# run CMD...: a command that changes the machine (printed, and only printed in a dry run).
run() {
  echo "+ $*"
  [ "$dry" -eq 1 ] || "$@"
}
# put PATH MODE: standard input written to PATH under the root (always: a dry run shows it).
put() {
  local path=$root$1
  mkdir -p "$(dirname "$path")"
  cat >"$path"
  chmod "$2" "$path"
  echo "wrote $path"
}

if [ "$uninstall" -eq 1 ]; then
  run systemctl disable --now "$service-backup.timer" "$service.service" || true
  for unit in "$service.service" "$service-backup.service" "$service-backup.timer"; do
    run rm -f "$root$units/$unit"
  done
  run systemctl daemon-reload
  if [ -f "$root/etc/caddy/Caddyfile" ] && grep -q "^# shipcaptaincrew" "$root/etc/caddy/Caddyfile"; then
    if [ -f "$root/etc/caddy/Caddyfile.before-scc" ]; then
      run mv "$root/etc/caddy/Caddyfile.before-scc" "$root/etc/caddy/Caddyfile"
    else
      run rm -f "$root/etc/caddy/Caddyfile"
    fi
    run systemctl reload-or-restart caddy
  fi
  echo "deploy.sh: removed the units and the Caddy site; the data ($data), the backups ($backups)"
  echo "           and the app ($app) stay: rm -rf them yourself if you mean to"
  exit 0
fi

scaled=0
[ "$workers" -gt 1 ] && scaled=1

# -- the system's packages ------------------------------------------------------------------
packages=(caddy python3 python3-venv ca-certificates)
[ "$scaled" -eq 1 ] && packages+=(postgresql redis-server)
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${packages[@]}"

# -- the service user, its data, the app ----------------------------------------------------
if [ "$dry" -eq 1 ] || ! getent passwd "$user" >/dev/null; then
  run useradd --system --user-group --home-dir "$data" --shell /usr/sbin/nologin "$user"
fi
run install -d -m 0750 "$root$data" "$root$backups"
run chown "$user:$user" "$root$data" "$root$backups"
run install -d -m 0755 "$root$app"
# The app: this clone's tracked files (a tarball: everything but its build and test leftovers),
# replacing the previous release's files; its .venv is kept and brought to the lock.
copy_app() {
  find "$root$app" -mindepth 1 -maxdepth 1 ! -name .venv -exec rm -rf {} +
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$src" ls-files -z | (cd "$src" && tar --null -T - -cf -) | tar -xf - -C "$root$app"
  else
    tar -C "$src" --exclude=.venv --exclude=site --exclude=artifacts --exclude=node_modules \
      -cf - . | tar -xf - -C "$root$app"
  fi
}
echo "+ copy $src to $root$app"
[ "$dry" -eq 1 ] || copy_app
run bash "$root$app/scripts/setup.sh" run

# -- settings -----------------------------------------------------------------------------
if [ "$scaled" -eq 1 ]; then
  db_url="postgresql://$user@/$user?host=/var/run/postgresql"
else
  db_url="sqlite:///$data/scc.sqlite3"
fi
{
  echo "# shipcaptaincrew: the server's settings (docs/deployment.md, 'Settings'); deploy.sh writes it"
  echo "SCC_DB_URL=$db_url"
  echo "SCC_PUBLIC_URL=https://$domain"
  echo "SCC_FORWARDED_ALLOW_IPS=[\"127.0.0.1\", \"::1\"]"
  [ "$scaled" -eq 1 ] && echo "SCC_REDIS_URL=redis://127.0.0.1:6379/0"
  echo "SCC_LOG_JSON=true"
} | put "$conf/env" 0644

if [ "$scaled" -eq 1 ]; then
  # The distribution's PostgreSQL: a role and a database named after the service user, reached
  # over the local socket by that user alone (peer authentication, no password to keep).
  run runuser -u postgres -- psql -q -c "DO \$\$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$user') THEN CREATE ROLE $user LOGIN; END IF; END\$\$;"
  if [ "$dry" -eq 1 ] || [ -z "$(runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$user'")" ]; then
    run runuser -u postgres -- createdb -O "$user" "$user"
  fi
fi

# -- Caddy ----------------------------------------------------------------------------------
if [ -f "$root/etc/caddy/Caddyfile" ] && ! grep -q "^# shipcaptaincrew" "$root/etc/caddy/Caddyfile" \
  && ! cmp -s "$root/etc/caddy/Caddyfile" /usr/share/doc/caddy/examples/Caddyfile 2>/dev/null \
  && [ ! -f "$root/etc/caddy/Caddyfile.before-scc" ]; then
  run cp "$root/etc/caddy/Caddyfile" "$root/etc/caddy/Caddyfile.before-scc"
fi
{
  echo "# shipcaptaincrew: written by scripts/deploy.sh (run it again to change it)."
  echo "# Caddy gets and renews the certificate, redirects http:// to https://, speaks HTTP/2"
  echo "# and HTTP/3, and passes WebSockets through; X-Forwarded-For is Caddy's own."
  echo "{"
  [ -n "$email" ] && echo "	email $email"
  echo "	servers {"
  echo "		timeouts {"
  echo "			read_header 10s"
  echo "			idle 2m"
  echo "		}"
  echo "	}"
  echo "}"
  echo ""
  echo "$domain {"
  echo "	encode zstd gzip"
  echo "	header Strict-Transport-Security \"max-age=31536000; includeSubDomains\""
  echo "	reverse_proxy 127.0.0.1:$port"
  echo "}"
} | put /etc/caddy/Caddyfile 0644

# -- systemd --------------------------------------------------------------------------------
hardening() {
  # Write access to its data directory only (and the backups, for the backup job).
  cat <<EOF
User=$user
Group=$user
EnvironmentFile=$conf/env
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectControlGroups=yes
RestrictSUIDSGID=yes
LockPersonality=yes
ReadWritePaths=$data${1:+ $1}
EOF
}
after="network-online.target"
[ "$scaled" -eq 1 ] && after="$after postgresql.service redis-server.service"
workers_flag=""
[ "$scaled" -eq 1 ] && workers_flag=" --workers $workers"
{
  cat <<EOF
# shipcaptaincrew: written by scripts/deploy.sh
[Unit]
Description=Ship, Captain and Crew: scc serve behind Caddy
Wants=$after
After=$after

[Service]
Type=exec
ExecStart=$app/.venv/bin/scc serve --host 127.0.0.1 --port $port$workers_flag
Restart=on-failure
RestartSec=2
TimeoutStopSec=30
$(hardening "")

[Install]
WantedBy=multi-user.target
EOF
} | put "$units/$service.service" 0644
{
  cat <<EOF
# shipcaptaincrew: written by scripts/deploy.sh
[Unit]
Description=Ship, Captain and Crew: a checked backup of the database
After=$after

[Service]
Type=oneshot
ExecStart=$app/.venv/bin/scc backup $backups --keep 14
$(hardening "$backups")
EOF
} | put "$units/$service-backup.service" 0644
put "$units/$service-backup.timer" 0644 <<EOF
# shipcaptaincrew: written by scripts/deploy.sh
[Unit]
Description=Ship, Captain and Crew: the nightly backup

[Timer]
OnCalendar=*-*-* 03:30:00
RandomizedDelaySec=30m
Persistent=true

[Install]
WantedBy=timers.target
EOF

run systemctl daemon-reload
run systemctl enable "$service.service" "$service-backup.timer"
run systemctl restart "$service.service"
run systemctl start "$service-backup.timer"
run systemctl enable caddy
run systemctl reload-or-restart caddy
echo "deploy.sh: https://$domain/ is served by Caddy from 127.0.0.1:$port ($([ "$scaled" -eq 1 ] && echo "$workers workers on PostgreSQL and Redis" || echo "one process on SQLite"))."
echo "           Needs: the domain's A (and AAAA) record pointing here; ports 80 and 443 (TCP) and 443 (UDP) open."
echo "           Logs: journalctl -u $service; backups: $backups (nightly); docs/deployment.md says more."
