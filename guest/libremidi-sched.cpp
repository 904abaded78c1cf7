// SPDX-License-Identifier: GPL-2.0
/*
 * libremidi-sched: notes scheduled ahead through libremidi's public API
 * (userspace/libremidi), nothing of rawmidi's own: midi_out with its ALSA
 * raw back-end (MIDI 1.0, schedule_message()) or its ALSA raw UMP
 * back-end (-u, schedule_ump()).
 *
 *   libremidi-sched -o CARD,DEV [-u] [-i CARD,DEV] [-n N] [-g GAP_MS]
 *                   [-d DELAY_MS] [-l LATE_MS] [-r]
 *
 * Schedules N note ons, GAP_MS apart, the first DELAY_MS from now, and
 * halfway a 21-byte SysEx (longer than a frame's 16 bytes), all at once
 * before the first is due; then sends "all notes off" at once with
 * send_message()/send_ump(). It waits until everything is due and 300 ms
 * more, then closes.
 *   -r   Relative timestamps (the first counted from the time of its
 *        call, each other from the previous message); Absolute otherwise
 *   -i   also read the messages where they arrive (a MIDI 1.0 raw port,
 *        through libremidi's midi_in with Absolute timestamps, the
 *        kernel's time of arrival) and check them: every message, in
 *        order, none before its time, none LATE_MS late (default 500)
 *
 * Prints "# framed output" or the warning libremidi gave (scheduling is
 * not available: sent at once), then a line per 3 bytes sent,
 * "msg NS B1 B2 B3": NS is the CLOCK_MONOTONIC time the bytes may leave
 * at the earliest (their time stamp; with the warning, the time of the
 * call that sent them; for "all notes off", the time of the last note,
 * as frames leave in order). guest/userspace.sh checks these against the
 * rawmidi test driver's transmit log. Exit status 0, or 1 if something
 * failed.
 *
 *   libremidi-sched bench sched|now CARD|HOST:GADGET COUNT
 *
 * The bench's rows libremidi-* (guest/bench.sh), measured as schedout's
 * (guest/schedout.c): COUNT note ons, one every 10 ms, to device 0 of the
 * rawmidi test driver CARD (1 Mbaud, 16-byte FIFO; its transmit log) or
 * of snd-usb-audio's card HOST of the MIDI gadget (its card GADGET stamps
 * each arrival), through libremidi's ALSA raw back-end:
 *   sched: all scheduled ahead at once with schedule_message(), Absolute
 *          timestamps (framed output underneath); exits with 3 if
 *          libremidi warns that it has none;
 *   now:   what applications do today: clock_nanosleep(TIMER_ABSTIME) to
 *          each time, then send_message(), at SCHED_OTHER (NoTimestamp:
 *          the port as libremidi 5.4.3 opens it).
 * Then waits until 300 ms after the last time (libremidi has no drain) and
 * closes. Prints, in microseconds, (time of the first byte - scheduled
 * time) as "n min median p99 max" and SAMPLES, as schedout does.
 */
#include <libremidi/backends/alsa_raw/helpers.hpp>
#include <libremidi/libremidi.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sched.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#include "sentlog.h"

namespace
{
struct sent_message
{
  std::vector<unsigned char> bytes;
  int64_t earliest; // CLOCK_MONOTONIC ns
};

bool parse_port(const char* s, libremidi::port_handle& h)
{
  int card, dev;
  if (sscanf(s, "%d,%d", &card, &dev) != 2)
    return false;
  h = libremidi::raw_to_port_handle({card, dev, 0});
  return true;
}

std::string what(const stdx::error& e)
{
  const auto m = e.message();
  return std::string(m.data(), m.size());
}

int64_t steady_ns()
{
  namespace chr = std::chrono;
  return chr::duration_cast<chr::nanoseconds>(chr::steady_clock::now().time_since_epoch()).count();
}

// MIDI 1.0 channel voice message as a UMP packet of type 2, group 0
uint32_t ump_of(const unsigned char* m)
{
  return 0x20000000u | uint32_t(m[0]) << 16 | uint32_t(m[1]) << 8 | m[2];
}

// A SysEx (F0 ... F7) as UMP SysEx7 packets (type 3, group 0)
std::vector<uint32_t> ump_sysex(const std::vector<unsigned char>& sx)
{
  std::vector<unsigned char> data(sx.begin() + 1, sx.end() - 1);
  std::vector<uint32_t> w;
  for (std::size_t at = 0; at < data.size(); at += 6)
  {
    const std::size_t n = std::min<std::size_t>(6, data.size() - at);
    const bool first = at == 0, last = at + n == data.size();
    const uint32_t status = first && last ? 0 : first ? 1 : last ? 3 : 2;
    unsigned char b[6]{};
    std::copy_n(data.begin() + at, n, b);
    w.push_back(0x30000000u | status << 20 | uint32_t(n) << 16 | uint32_t(b[0]) << 8 | b[1]);
    w.push_back(uint32_t(b[2]) << 24 | uint32_t(b[3]) << 16 | uint32_t(b[4]) << 8 | b[5]);
  }
  return w;
}

void sleep_until(int64_t ns)
{
  const struct timespec ts{.tv_sec = time_t(ns / 1'000'000'000), .tv_nsec = long(ns % 1'000'000'000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr))
    ;
}

// libremidi-sched bench sched|now CARD|HOST:GADGET COUNT (see the top)
int bench(const char* how, const char* spec, int count)
{
  const bool sched = !strcmp(how, "sched");
  const char* colon = strchr(spec, ':');
  const int card = atoi(spec), gadget = colon ? atoi(colon + 1) : -1;
  if ((!sched && strcmp(how, "now")) || count < 2 || count > 2000)
  {
    fprintf(stderr, "usage: libremidi-sched bench sched|now CARD|HOST:GADGET COUNT (2..2000)\n");
    return 2;
  }
  std::vector<miditest_tx> log(3 * count + 16);
  std::vector<long long> when(count), err(count);
  const struct sched_param other{};
  if (!sched && sched_setscheduler(0, SCHED_OTHER, &other))
    return perror("SCHED_OTHER"), 1;
  int usb_fd = -1;
  if (gadget >= 0 && (usb_fd = usb_in_open(gadget, 0)) < 0)
    return 1;
  if (gadget < 0 && (mt_set("baud", "1000000") || mt_set("fifo", "16")))
    return perror("miditest"), 1;

  std::string warning;
  libremidi::output_configuration oc{
      .on_error = [](std::string_view e, const libremidi::source_location&) {
    fprintf(stderr, "libremidi: %.*s\n", int(e.size()), e.data());
  },
      .on_warning = [&](std::string_view w, const libremidi::source_location&) { warning += w; },
      .timestamps = sched ? libremidi::timestamp_mode::Absolute
                          : libremidi::timestamp_mode::NoTimestamp};
  libremidi::midi_out out{oc, libremidi::alsa_raw_output_configuration{.framed_output = sched}};
  libremidi::output_port op{};
  op.api = libremidi::API::ALSA_RAW;
  op.port = libremidi::raw_to_port_handle({card, 0, 0});
  if (auto e = out.open_port(op); e != stdx::error{})
    return fprintf(stderr, "cannot open card %d: %s\n", card, what(e).c_str()), 1;
  if (gadget < 0)
    mt_log(log.data(), int(log.size())); // forget earlier output

  const long long t0 = now_ns() + 50'000'000;
  for (int i = 0; i < count; i++)
  {
    const unsigned char m[3]{0x90, (unsigned char)(i & 0x7f), 0x40};
    when[i] = t0 + i * 10'000'000LL;
    if (!sched)
      sleep_until(when[i]);
    if (auto e = sched ? out.schedule_message(when[i], m, 3) : out.send_message(m, 3);
        e != stdx::error{})
      return fprintf(stderr, "message %d: %s\n", i, what(e).c_str()), 1;
    if (!warning.empty())
      return fprintf(stderr, "%s\n", warning.c_str()), 3;
  }
  sleep_until(when[count - 1] + 300'000'000);
  out.close_port();

  const int n = gadget >= 0 ? usb_log(usb_fd, log.data(), int(log.size()))
                            : mt_log(log.data(), int(log.size()));
  if (sched_errs(log.data(), n, when.data(), count, 0, err.data()))
    return 1;
  std::sort(err.begin(), err.end());
  print_dist(err.data(), count, 1e3);
  return 0;
}

// ---- libremidi-sched opt CHECK CARD: the ALSA raw output's options ----

struct opt_port
{
  std::string warning;
  int errors = 0;
  std::unique_ptr<libremidi::midi_out> out;
};

// Opens device 0 of the test driver's CARD (31250 baud, 16-byte FIFO, an
// empty transmit log) with the given options
bool opt_open(opt_port& p, int card, libremidi::timestamp_mode ts,
              libremidi::alsa_raw_output_configuration api)
{
  if (mt_reset())
    return perror("miditest"), false;
  libremidi::output_configuration oc{
      .on_error = [&p](std::string_view e, const libremidi::source_location&) {
    printf("# error: %.*s\n", int(e.size()), e.data());
    p.errors++;
  },
      .on_warning = [&p](std::string_view w, const libremidi::source_location&) {
    printf("# warning: %.*s\n", int(w.size()), w.data());
    p.warning += std::string(w) + "\n";
  },
      .timestamps = ts};
  p.out = std::make_unique<libremidi::midi_out>(oc, std::move(api));
  libremidi::output_port op{};
  op.api = libremidi::API::ALSA_RAW;
  op.port = libremidi::raw_to_port_handle({card, 0, 0});
  if (auto e = p.out->open_port(op); e != stdx::error{})
    return printf("# cannot open: %s\n", what(e).c_str()), false;
  return true;
}

// The first bytes of the transmit log (after waiting for them), or fewer
std::vector<miditest_tx> opt_log(std::size_t want, int wait_ms)
{
  std::vector<miditest_tx> log;
  for (int i = 0; i <= wait_ms / 10; i++)
  {
    miditest_tx chunk[256];
    const int n = mt_log(chunk, 256);
    log.insert(log.end(), chunk, chunk + std::max(n, 0));
    if (log.size() >= want)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return log;
}

#define OPT_CHECK(cond, ...)                                                          \
  do                                                                                  \
  {                                                                                   \
    if (!(cond))                                                                      \
    {                                                                                 \
      printf("# line %d: %s: ", __LINE__, #cond);                                    \
      printf(__VA_ARGS__);                                                            \
      printf("\n");                                                                   \
      return 1;                                                                       \
    }                                                                                 \
  } while (0)

const unsigned char note_a[3]{0x90, 0x3c, 0x40}, note_b[3]{0x90, 0x3e, 0x40};

// sync: the default output, as upstream opens it (SND_RAWMIDI_SYNC):
// send_message() returns once the driver has every byte, and
// schedule_message() sends at once, without a warning
int opt_sync(int card)
{
  opt_port p;
  OPT_CHECK(opt_open(p, card, libremidi::timestamp_mode(libremidi::output_configuration{}.timestamps), {}),
            "open");
  std::vector<unsigned char> sx{0xf0, 0x7d};
  for (int i = 0; i < 117; i++)
    sx.push_back((unsigned char)(i & 0x7f));
  sx.push_back(0xf7);
  const int64_t t0 = steady_ns();
  OPT_CHECK(p.out->send_message(sx.data(), sx.size()) == stdx::error{}, "send_message");
  const int64_t t1 = steady_ns();
  auto log = opt_log(sx.size(), 1000);
  OPT_CHECK(log.size() == sx.size(), "%zu of %zu bytes left", log.size(), sx.size());
  // the driver takes bytes into its 16-byte FIFO: when its buffer is
  // empty, all but the last 16 have left the wire
  const auto& gone = log[sx.size() - 17];
  printf("# send_message() of %zu bytes took %lld us; byte %zu left %lld us after the call\n",
         sx.size(), (long long)(t1 - t0) / 1000, sx.size() - 17,
         (long long)(int64_t(gone.time_ns) - t0) / 1000);
  OPT_CHECK(int64_t(gone.time_ns) <= t1, "returned %lld us before byte %zu left",
            (long long)(int64_t(gone.time_ns) - t1) / 1000, sx.size() - 17);
  const int64_t due = steady_ns() + 500'000'000;
  OPT_CHECK(p.out->schedule_message(due, note_a, 3) == stdx::error{}, "schedule_message");
  log = opt_log(3, 300);
  OPT_CHECK(log.size() == 3 && int64_t(log[0].time_ns) < due - 300'000'000,
            "schedule_message() did not send at once");
  OPT_CHECK(p.warning.empty() && !p.errors, "a warning or an error");
  return 0;
}

// full: framed output with room for 4 frames; without it, everything is
// sent at once, with one warning
int opt_full(int card, bool framed)
{
  opt_port p;
  OPT_CHECK(opt_open(p, card, libremidi::timestamp_mode::Absolute,
                     {.framed_output = true, .framed_capacity = 4}),
            "open");
  const int64_t due = steady_ns() + 1'000'000'000;
  for (int i = 0; i < 4; i++)
    OPT_CHECK(p.out->schedule_message(due, note_a, 3) == stdx::error{}, "note %d", i);
  const auto fifth = p.out->schedule_message(due, note_b, 3);
  if (!framed)
  {
    OPT_CHECK(fifth == stdx::error{}, "the fifth: %s", what(fifth).c_str());
    OPT_CHECK(p.out->drain() == stdx::error{}, "drain");
    const auto log = opt_log(15, 500);
    OPT_CHECK(log.size() == 15, "%zu of 15 bytes sent at once", log.size());
    OPT_CHECK(std::count(p.warning.begin(), p.warning.end(), '\n') == 1, "one warning");
    return 0;
  }
  OPT_CHECK(fifth == std::errc::resource_unavailable_try_again, "the fifth: %s",
            what(fifth).c_str());
  const int64_t t0 = steady_ns();
  OPT_CHECK(p.out->drain() == stdx::error{}, "drain");
  const int64_t t1 = steady_ns();
  auto log = opt_log(15, 100);
  printf("# 4 notes queued, the fifth refused; drain() returned %lld us after their time\n",
         (long long)(t1 - due) / 1000);
  OPT_CHECK(log.size() == 12, "%zu bytes left, not the 4 notes' 12", log.size());
  OPT_CHECK(int64_t(log[0].time_ns) >= due && t1 >= int64_t(log[11].time_ns) && t0 < due,
            "drain() returned before the notes left");
  // room again: a 40-byte SysEx takes 3 frames
  std::vector<unsigned char> sx{0xf0};
  for (int i = 0; i < 38; i++)
    sx.push_back((unsigned char)i);
  sx.push_back(0xf7);
  OPT_CHECK(p.out->send_message(sx.data(), sx.size()) == stdx::error{}, "SysEx");
  OPT_CHECK(p.out->send_message(sx.data(), sx.size()) == std::errc::resource_unavailable_try_again,
            "a second SysEx has 1 frame of room, not 3");
  OPT_CHECK(p.out->drain() == stdx::error{}, "drain");
  log = opt_log(sx.size(), 300);
  OPT_CHECK(log.size() == sx.size(), "%zu of %zu bytes of the SysEx", log.size(), sx.size());
  OPT_CHECK(p.warning.empty() && !p.errors, "a warning or an error");
  return 0;
}

// close: close_port() waits up to close_timeout (500 ms) for what is
// queued: a note due in 100 ms leaves, one due in 2 s does not
int opt_close(int card, bool framed)
{
  opt_port p;
  OPT_CHECK(opt_open(p, card, libremidi::timestamp_mode::Absolute, {.framed_output = true}),
            "open");
  const int64_t t0 = steady_ns();
  OPT_CHECK(p.out->schedule_message(t0 + 100'000'000, note_a, 3) == stdx::error{}, "note a");
  OPT_CHECK(p.out->schedule_message(t0 + 2'000'000'000, note_b, 3) == stdx::error{}, "note b");
  OPT_CHECK(p.out->close_port() == stdx::error{}, "close_port");
  const int64_t t1 = steady_ns();
  const auto log = opt_log(6, 300);
  printf("# close_port() took %lld ms\n", (long long)(t1 - t0) / 1'000'000);
  if (!framed)
  {
    OPT_CHECK(log.size() == 6, "%zu of 6 bytes sent at once", log.size());
    return 0;
  }
  OPT_CHECK(log.size() == 3 && log[0].byte == note_a[0] && log[1].byte == note_a[1],
            "%zu bytes left, not note a's 3", log.size());
  OPT_CHECK(int64_t(log[0].time_ns) >= t0 + 100'000'000, "note a left early");
  OPT_CHECK(t1 - t0 >= 100'000'000 && t1 - t0 < 1'500'000'000,
            "close_port() took %lld ms", (long long)(t1 - t0) / 1'000'000);
  return 0;
}

// clockless: AudioFrame and Custom timestamps mean nothing on a raw
// port: one warning each, every message sent at once, none lost
int opt_clockless(int card)
{
  for (auto ts : {libremidi::timestamp_mode::AudioFrame, libremidi::timestamp_mode::Custom})
  {
    opt_port p;
    OPT_CHECK(opt_open(p, card, ts, {.framed_output = true}), "open");
    const int64_t due = steady_ns() + 500'000'000;
    OPT_CHECK(p.out->schedule_message(12345, note_a, 3) == stdx::error{}, "schedule a");
    OPT_CHECK(p.out->schedule_message(due, note_b, 3) == stdx::error{}, "schedule b");
    const auto log = opt_log(6, 300);
    OPT_CHECK(log.size() == 6 && int64_t(log[5].time_ns) < due - 300'000'000,
              "%zu of 6 bytes sent at once", log.size());
    OPT_CHECK(std::count(p.warning.begin(), p.warning.end(), '\n') == 1
                  && p.warning.find("timestamp mode") != std::string::npos,
              "one warning about the timestamp mode");
  }
  return 0;
}

// relative: after a pause, a Relative time counts from the call, not from
// a previous message long gone
int opt_relative(int card, bool framed)
{
  opt_port p;
  OPT_CHECK(opt_open(p, card, libremidi::timestamp_mode::Relative, {.framed_output = true}),
            "open");
  const int64_t c1 = steady_ns();
  OPT_CHECK(p.out->schedule_message(50'000'000, note_a, 3) == stdx::error{}, "note a");
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const int64_t c2 = steady_ns();
  OPT_CHECK(p.out->schedule_message(50'000'000, note_b, 3) == stdx::error{}, "note b");
  OPT_CHECK(p.out->drain() == stdx::error{}, "drain");
  const auto log = opt_log(6, 300);
  OPT_CHECK(log.size() == 6, "%zu of 6 bytes", log.size());
  printf("# note a %lld us after its call, note b %lld us after its own\n",
         (long long)(int64_t(log[0].time_ns) - c1) / 1000,
         (long long)(int64_t(log[3].time_ns) - c2) / 1000);
  if (framed)
    OPT_CHECK(int64_t(log[0].time_ns) >= c1 + 50'000'000 && int64_t(log[3].time_ns) >= c2 + 50'000'000,
              "a note left before 50 ms after its call");
  return 0;
}

int opt(const char* check, int card, bool framed)
{
  if (!strcmp(check, "sync"))
    return opt_sync(card);
  if (!strcmp(check, "full"))
    return opt_full(card, framed);
  if (!strcmp(check, "close"))
    return opt_close(card, framed);
  if (!strcmp(check, "clockless"))
    return opt_clockless(card);
  if (!strcmp(check, "relative"))
    return opt_relative(card, framed);
  fprintf(stderr, "usage: libremidi-sched opt sync|full|close|clockless|relative CARD framed|plain\n");
  return 2;
}
}

int main(int argc, char** argv)
{
  if (argc == 5 && !strcmp(argv[1], "bench"))
    return bench(argv[2], argv[3], atoi(argv[4]));
  if (argc == 5 && !strcmp(argv[1], "opt"))
    return opt(argv[2], atoi(argv[3]), !strcmp(argv[4], "framed"));
  libremidi::port_handle out_port{}, in_port{};
  bool have_out = false, have_in = false, ump = false, relative = false;
  int n = 20, gap_ms = 10, delay_ms = 50, late_ms = 500, c;

  while ((c = getopt(argc, argv, "o:i:un:g:d:l:r")) != -1)
  {
    switch (c)
    {
      case 'o': have_out = parse_port(optarg, out_port); break;
      case 'i': have_in = parse_port(optarg, in_port); break;
      case 'u': ump = true; break;
      case 'n': n = atoi(optarg); break;
      case 'g': gap_ms = atoi(optarg); break;
      case 'd': delay_ms = atoi(optarg); break;
      case 'l': late_ms = atoi(optarg); break;
      case 'r': relative = true; break;
      default: return 2;
    }
  }
  if (!have_out || n < 2 || n > 500 || gap_ms < 0 || delay_ms < 0)
  {
    fprintf(stderr, "usage: libremidi-sched -o CARD,DEV [-u] [-i CARD,DEV] [-n N] [-g GAP_MS] "
                    "[-d DELAY_MS] [-l LATE_MS] [-r]\n");
    return 2;
  }

  // The receiving side first, so that it reads from the first message on
  std::mutex lock;
  std::vector<libremidi::message> got;
  std::unique_ptr<libremidi::midi_in> in;
  if (have_in)
  {
    libremidi::input_configuration ic{
        .on_message =
            [&](libremidi::message&& m) {
      std::lock_guard<std::mutex> l{lock};
      got.push_back(std::move(m));
    },
        .on_error = [](std::string_view e, const libremidi::source_location&) {
      printf("# input error: %.*s\n", int(e.size()), e.data());
    },
        .ignore_sysex = false,
        .ignore_timing = true,
        .ignore_sensing = true,
        .timestamps = libremidi::timestamp_mode::Absolute};
    in = std::make_unique<libremidi::midi_in>(ic, libremidi::alsa_raw_input_configuration{});
    libremidi::input_port ip{};
    ip.api = libremidi::API::ALSA_RAW;
    ip.port = in_port;
    if (auto err = in->open_port(ip); err != stdx::error{})
    {
      printf("# cannot open the input: %s\n", what(err).c_str());
      return 1;
    }
  }

  std::string warning;
  bool errors = false;
  libremidi::output_configuration oc{
      .on_error = [&](std::string_view e, const libremidi::source_location&) {
    printf("# error: %.*s\n", int(e.size()), e.data());
    errors = true;
  },
      .on_warning = [&](std::string_view w, const libremidi::source_location&) {
    warning += std::string(w);
    printf("warning: %.*s\n", int(w.size()), w.data());
  },
      .timestamps = relative ? libremidi::timestamp_mode::Relative
                             : libremidi::timestamp_mode::Absolute};
  std::unique_ptr<libremidi::midi_out> out;
  libremidi::output_port op{};
  op.port = out_port;
  if (ump)
  {
    out = std::make_unique<libremidi::midi_out>(
        oc, libremidi::alsa_raw_ump::output_configuration{.framed_output = true});
    op.api = libremidi::API::ALSA_RAW_UMP;
  }
  else
  {
    out = std::make_unique<libremidi::midi_out>(
        oc, libremidi::alsa_raw_output_configuration{.framed_output = true});
    op.api = libremidi::API::ALSA_RAW;
  }
  if (auto err = out->open_port(op); err != stdx::error{})
  {
    printf("# cannot open the output: %s\n", what(err).c_str());
    return 1;
  }

  // The schedule: note ons, and halfway a SysEx longer than a frame
  std::vector<sent_message> sent;
  std::vector<unsigned char> sysex{0xf0, 0x7d};
  for (int i = 0; i < 18; i++)
    sysex.push_back((unsigned char)(0x10 + i));
  sysex.push_back(0xf7);

  const int64_t t0 = out->current_time();
  if (t0 <= 0 || t0 - steady_ns() > 1'000'000 || steady_ns() - t0 > 1'000'000'000)
  {
    printf("# current_time() %lld is not on the steady clock\n", (long long)t0);
    return 1;
  }
  // Relative: the first message counts from the time of its call, which
  // comes after t0 (by milliseconds when the process is preempted)
  int64_t start = t0;
  int64_t previous = 0;
  for (int i = 0; i < n; i++)
  {
    std::vector<unsigned char> m{0x90, (unsigned char)(0x30 + i % 64), 0x40};
    if (i == n / 2)
      m = sysex;
    const int64_t call = steady_ns();
    if (relative && i == 0)
      start = previous = call;
    const int64_t due = start + (int64_t(delay_ms) + int64_t(i) * gap_ms) * 1'000'000;
    const int64_t ts = relative ? due - previous : due;
    previous = due;
    stdx::error err;
    if (!ump)
      err = out->schedule_message(ts, m.data(), m.size());
    else if (m[0] == 0xf0)
    {
      const auto w = ump_sysex(m);
      err = out->schedule_ump(ts, w.data(), w.size());
    }
    else
    {
      const uint32_t w = ump_of(m.data());
      err = out->schedule_ump(ts, &w, 1);
    }
    if (err != stdx::error{})
    {
      printf("# message %d: %s\n", i, what(err).c_str());
      return 1;
    }
    // Without framed output the call sent the message itself
    sent.push_back({m, warning.empty() ? due : call});
  }
  if (warning.empty())
    printf("# framed output: %d messages queued ahead in %lld us\n", n,
           (long long)(steady_ns() - t0) / 1000);

  // "all notes off", at once: after the frames queued before it
  const unsigned char off[3]{0xb0, 0x7b, 0x00};
  const int64_t call = steady_ns();
  stdx::error err;
  if (ump)
  {
    const uint32_t w = ump_of(off);
    err = out->send_ump(&w, 1);
  }
  else
    err = out->send_message(off, 3);
  if (err != stdx::error{})
  {
    printf("# all notes off: %s\n", what(err).c_str());
    return 1;
  }
  sent.push_back({{off, off + 3}, warning.empty() ? sent.back().earliest : call});

  for (const auto& m : sent)
    for (std::size_t i = 0; i + 3 <= m.bytes.size(); i += 3)
      printf("msg %lld %02x %02x %02x\n", (long long)m.earliest, m.bytes[i], m.bytes[i + 1],
             m.bytes[i + 2]);
  fflush(stdout);

  // No drain in libremidi: closing would drop frames not yet due
  const int64_t until = sent.back().earliest + 300'000'000;
  while (steady_ns() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  out->close_port();

  bool bad = errors;
  if (have_in)
  {
    std::lock_guard<std::mutex> l{lock};
    printf("# received %zu of %zu messages\n", got.size(), sent.size());
    if (got.size() != sent.size())
      bad = true;
    for (std::size_t i = 0; i < std::min(got.size(), sent.size()); i++)
    {
      const auto& g = got[i];
      const long long late = (long long)(g.timestamp - sent[i].earliest);
      const bool same = std::equal(
          g.bytes.begin(), g.bytes.end(), sent[i].bytes.begin(), sent[i].bytes.end());
      printf("arr %zu %lld us%s%s%s\n", i, late / 1000, same ? "" : " (other bytes)",
             late < 0 ? " (early)" : "", late >= late_ms * 1'000'000LL ? " (late)" : "");
      if (!same || late < 0 || late >= late_ms * 1'000'000LL)
        bad = true;
    }
    in->close_port();
  }
  return bad ? 1 : 0;
}
