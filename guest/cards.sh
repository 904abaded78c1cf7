# cards.sh, sourced by the guest's scripts: ALSA card numbers found by the
# "]: DRIVER - NAME" part of a card's line in /proc/asound/cards.

# card_of DRIVER: the first card of that driver (VirMIDI, MIDItest, ...)
card_of() { awk -v d="]: $1 - " 'index($0, d) { print $1; exit }' /proc/asound/cards; }

# card_named "DRIVER - NAME": the card whose line ends so
card_named() { awk -v d="]: $1" 'substr($0, length($0) - length(d) + 1) == d { print $1; exit }' /proc/asound/cards; }
