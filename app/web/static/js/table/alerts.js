// Telling you it is your turn when you look elsewhere: a sound, the tab's title, and (if
// you ask for it) a browser notification while the tab is hidden; and a warning sound
// when your time is about to run out. The sounds are made with the Web Audio API; your
// choices are your settings (settings.js: kept on your account).

import { changeSetting, settingsOf } from "../settings.js";

const WARN_SECONDS = 5;

export class TurnAlerts {
  constructor({ soundButton, notifyButton, user }) {
    this.soundButton = soundButton;
    this.notifyButton = notifyButton;
    this.user = user;
    const settings = settingsOf(user);
    this.sound = settings.sounds;
    this.notify = settings.turn_alerts && "Notification" in window
      && Notification.permission === "granted";
    this.turnKey = null;
    this.warning = null;
    this.audio = null;
    soundButton.addEventListener("click", () => this.setSound(!this.sound));
    notifyButton.addEventListener("click", () => this.toggleNotify());
    notifyButton.hidden = !("Notification" in window);
    this.label();
  }

  label() {
    this.soundButton.textContent = this.sound ? "Sound on" : "Sound off";
    this.soundButton.setAttribute("aria-pressed", String(this.sound));
    this.notifyButton.textContent = this.notify ? "Turn alerts on" : "Turn alerts off";
    this.notifyButton.setAttribute("aria-pressed", String(this.notify));
  }

  setSound(on) {
    this.sound = on;
    changeSetting(this.user, "sounds", on).catch(() => null);
    this.label();
    if (on) this.beep(660, 0.08);
  }

  async toggleNotify() {
    if (!this.notify && Notification.permission !== "granted") {
      await Notification.requestPermission();
    }
    this.notify = !this.notify && Notification.permission === "granted";
    changeSetting(this.user, "turn_alerts", this.notify).catch(() => null);
    this.label();
  }

  // The page's title, and the alerts of a turn that is newly yours.
  update(turn, mine, tableName) {
    const base = `${tableName} · holdem-server`;
    document.title = mine ? `▶ Your turn · ${base}` : base;
    const key = mine ? `${turn.hand_id}:${turn.seq}` : null;
    if (key === this.turnKey) return;
    this.turnKey = key;
    clearTimeout(this.warning);
    if (!mine) return;
    this.beep(880, 0.12);
    if (this.notify && document.hidden) {
      const note = new Notification(`Your turn at ${tableName}`, { tag: "holdem-turn", body: "Your turn to act." });
      note.onclick = () => window.focus();
    }
    const left = turn.deadline - Date.now() / 1000 - WARN_SECONDS;
    if (left > 0) this.warning = setTimeout(() => this.turnKey === key && this.warn(), left * 1000);
  }

  warn() {
    this.beep(440, 0.1);
    setTimeout(() => this.beep(440, 0.1), 180);
  }

  beep(frequency, seconds) {
    if (!this.sound) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    this.audio = this.audio || new Context();
    const tone = this.audio.createOscillator();
    const gain = this.audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, this.audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, this.audio.currentTime + seconds);
    tone.connect(gain).connect(this.audio.destination);
    tone.start();
    tone.stop(this.audio.currentTime + seconds);
  }
}
