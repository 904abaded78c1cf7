#!/bin/bash
# deps.sh: install the Debian packages in scripts/packages.txt that are
# missing (apt-get, as root). Quiet and quick when all are there.
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
done < "$TOP/scripts/packages.txt"
[ ${#missing[@]} = 0 ] && exit 0
[ "$(id -u)" = 0 ] || die "missing Debian packages (run as root to install): ${missing[*]}"
say "installing ${#missing[@]} Debian packages: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
