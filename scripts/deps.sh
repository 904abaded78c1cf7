#!/bin/bash
# deps.sh: install the Debian packages in scripts/packages.txt that are
# missing, and the pinned kernel source (apt-get, as root). Quiet and
# quick when all are there.
. "$(dirname "$0")/lib.sh"
missing=()
while read -r spec; do
	case "$spec" in ''|'#'*) continue ;; esac
	name=${spec%%=*}
	want=${spec#"$name"}; want=${want#=}
	have=$(dpkg-query -W -f '${db:Status-Abbrev}${Version}' "$name" 2>/dev/null || true)
	if [[ $have != "ii "* || ( -n $want && $have != "ii $want" ) ]]; then
		missing+=("$spec")
	fi
done < <(cat "$TOP/scripts/packages.txt"; echo "$BASE_PKG=$BASE_VERSION")
[ ${#missing[@]} = 0 ] && exit 0
[ "$(id -u)" = 0 ] || die "missing Debian packages (run as root to install): ${missing[*]}"
"$TOP/scripts/apt-backports.sh"
say "installing ${#missing[@]} Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
if ! apt-cache madison "$BASE_PKG" | grep -q " $BASE_VERSION "; then
	echo "error: $BASE_PKG $BASE_VERSION is no longer on offer; the archive has:" >&2
	apt-cache madison "$BASE_PKG" | sed 's/^/  /' >&2
	echo "Move the pin: BASE_VERSION in scripts/lib.sh, then rebase the series (HACKING.md, "The base and its pin")." >&2
	exit 1
fi
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
