// The admin page's sections as tabs: one shows at a time, named in the address
// (`/admin#tournaments`), so a section can be linked to and survives a reload.

const DEFAULT_TAB = "users";

export class AdminTabs {
  // `onShow(name)` runs each time a section is shown (to load or refresh it).
  constructor({ onShow }) {
    this.onShow = onShow;
    this.tabs = [...document.querySelectorAll("[data-tab]")];
    for (const tab of this.tabs) tab.addEventListener("click", () => this.show(tab.dataset.tab, true));
    window.addEventListener("hashchange", () => this.show(this.fromAddress(), false));
  }

  fromAddress() {
    const name = window.location.hash.slice(1);
    return this.tabs.some((tab) => tab.dataset.tab === name) ? name : DEFAULT_TAB;
  }

  start() {
    this.show(this.fromAddress(), false);
  }

  show(name, remember) {
    for (const tab of this.tabs) {
      const selected = tab.dataset.tab === name;
      tab.setAttribute("aria-selected", String(selected));
      tab.tabIndex = selected ? 0 : -1;
    }
    for (const panel of document.querySelectorAll("[data-panel]")) panel.hidden = panel.dataset.panel !== name;
    if (remember && window.location.hash !== `#${name}`) history.replaceState(null, "", `#${name}`);
    this.onShow(name);
  }
}
