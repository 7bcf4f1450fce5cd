// The conversation page's script (see src/conversation/panel.ts). Every word it shows comes from
// the extension as plain text and is set as text; an e-mail comes sanitized and is put in from an
// inert <template>. It asks the extension for everything (links by number, actions by name) and
// keeps the unsent reply in the webview's state, so a reload loses nothing.
(function () {
  'use strict';
  const vscode = acquireVsCodeApi();
  const root = document.getElementById('conversation');
  const identity = { account: root.dataset.account, post: Number(root.dataset.post) };
  const state = Object.assign({}, vscode.getState() || {}, identity);
  vscode.setState(state);

  /** Sends a message naming this page's post and account. */
  const post = (type, fields) => vscode.postMessage(Object.assign({ type, account: identity.account, post: identity.post }, fields || {}));

  const el = (tag, attributes, children) => {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === false) continue;
      if (name === 'text') made.textContent = value;
      else if (name === 'onclick') made.addEventListener('click', value);
      else made.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children || []) if (child) made.append(child);
    return made;
  };
  const button = (label, onclick, extra) => el('button', Object.assign({ type: 'button', text: label, onclick }, extra || {}));

  let model;
  let replyBox;
  let sendTimer;
  /** Sends pressed, and how many the extension has answered (its count, in each model): the box stays locked in between. */
  let sendsPressed = 0;
  let sendsAnswered = 0;

  /** The reply box: made once, so that what is typed, and the focus, stay through every update. */
  function makeReply(labels) {
    const heading = el('h2', { id: 'reply-heading', text: labels.reply });
    const hint = el('p', { id: 'reply-hint', class: 'hint', text: labels.replyHint });
    // No more than a reply may hold: the extension refuses a longer one, at a send and at the page's next start.
    const area = el('textarea', {
      id: 'reply-text',
      rows: 6,
      maxlength: Number(root.dataset.replyMax) || undefined,
      'aria-labelledby': 'reply-heading',
      'aria-describedby': 'reply-hint reply-status',
    });
    area.value = typeof state.reply === 'string' ? state.reply : '';
    const status = el('p', { id: 'reply-status', class: 'status', role: 'status', 'aria-live': 'polite' });
    const send = button(labels.send, () => sendReply(), { id: 'reply-send', class: 'primary' });
    const retry = button(labels.retry, () => post('retry'), { id: 'reply-retry', class: 'primary', hidden: true });
    const edit = button(labels.edit, () => post('edit'), { id: 'reply-edit', hidden: true });
    const kept = button(labels.openKeptDraft, () => post('openKeptDraft'), { id: 'reply-kept', hidden: true });
    area.addEventListener('input', () => {
      state.reply = area.value;
      vscode.setState(state);
      clearTimeout(sendTimer);
      sendTimer = setTimeout(() => post('reply', { text: area.value }), 400);
    });
    area.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        sendReply();
      }
    });
    const section = el('section', { id: 'reply', 'aria-labelledby': 'reply-heading' }, [
      heading,
      hint,
      area,
      el('div', { class: 'buttons' }, [send, retry, edit, kept]),
      status,
    ]);
    return { section, area, status, send, retry, edit, kept };
  }

  function sendReply() {
    if (!replyBox || replyBox.area.readOnly || !replyBox.area.value.trim()) return;
    clearTimeout(sendTimer);
    // Locked at the press, until the extension has answered this Send (it answers each): what is
    // typed from here on would not be in what is sent. A model sent meanwhile for another reason
    // (the customer card read, the list changed) does not unlock it.
    sendsPressed = Math.max(sendsPressed, sendsAnswered) + 1;
    if (document.activeElement === replyBox.send) replyBox.area.focus();
    lockReply(replyBox, true);
    post('send', { text: replyBox.area.value });
  }

  function updateReply(reply, labels) {
    const box = replyBox;
    if (typeof reply.text === 'string' && reply.text !== box.area.value) {
      box.area.value = reply.text;
      state.reply = reply.text;
      vscode.setState(state);
    }
    if (typeof reply.sends === 'number') sendsAnswered = reply.sends;
    const sending = reply.state === 'sending';
    const failed = reply.state === 'failed';
    lockReply(box, sending || failed || sendsPressed > sendsAnswered);
    box.send.hidden = failed;
    box.send.textContent = sending ? labels.sending : labels.send;
    box.retry.hidden = !failed;
    box.edit.hidden = !failed;
    box.kept.hidden = !reply.note;
    box.status.textContent = failed ? reply.why || '' : sending ? labels.sending : reply.note || '';
    box.status.classList.toggle('error', failed);
  }

  function lockReply(box, locked) {
    box.area.readOnly = locked;
    box.area.setAttribute('aria-readonly', String(locked));
    box.send.disabled = locked;
  }

  function facts(model) {
    const list = el('dl', { class: 'facts' });
    for (const fact of model.facts) list.append(el('dt', { text: fact.name }), el('dd', { text: fact.value }));
    return list;
  }

  function actions(model) {
    const labels = model.labels;
    const act = (name) => () => post('action', { action: name });
    const list = [
      model.updatesRefused ? undefined : model.closed ? button(labels.reopen, act('reopen')) : button(labels.close, act('close')),
      model.updatesRefused ? undefined : button(labels.assignToMe, act('assignToMe')),
      model.updatesRefused ? undefined : button(labels.assign, act('assign')),
      model.updatesRefused ? undefined : button(labels.setStatus, act('setStatus')),
      button(labels.startWork, act('startWork')),
      button(labels.goToCode, act('goToCode')),
      button(labels.openInBrowser, act('openInBrowser')),
      button(labels.openAsText, act('openAsText')),
      button(labels.refresh, act('refresh')),
    ];
    return el('div', { class: 'actions', role: 'toolbar', 'aria-label': labels.actions }, list);
  }

  function customer(model) {
    const card = model.client;
    if (!card) return undefined;
    const labels = model.labels;
    const parts = [el('h2', { id: 'customer-heading', text: labels.customer }), el('p', { class: 'client-name', text: card.name })];
    // Each part of the contact on a line of its own: an address or a number is not broken across two.
    if (card.contact.length)
      parts.push(el('h3', { text: labels.contact }), el('p', { class: 'contact' }, card.contact.flatMap((part, i) => (i ? [el('br'), part] : [part]))));
    if (card.postsCount) parts.push(el('h3', { text: labels.otherPosts }), el('p', { class: 'hint', text: card.postsCount }));
    if (card.posts.length)
      parts.push(el('ul', {}, card.posts.map((other) => el('li', {}, [button(other.title, () => post('openPost', { id: other.id }), { class: 'link' })]))));
    if (card.dealsCount) parts.push(el('h3', { text: labels.deals }), el('p', { class: 'hint', text: card.dealsCount }));
    if (card.deals.length) parts.push(el('ul', {}, card.deals.map((deal) => el('li', { text: deal }))));
    if (card.note) parts.push(el('p', { class: 'hint', text: card.note }));
    return el('aside', { id: 'customer', 'aria-labelledby': 'customer-heading' }, parts);
  }

  function message(item, index, labels) {
    const headingId = `message-${index}`;
    const who = item.who || labels.unknownAuthor;
    const head = el('h3', { id: headingId }, [
      el('span', { class: 'who', text: who }),
      el('span', { class: 'kind', text: item.comment ? labels.comment : labels.original }),
      item.when ? el('time', { text: item.when }) : undefined,
    ]);
    const body = el('div', { class: 'body' });
    if (typeof item.html === 'string') {
      const template = document.createElement('template');
      template.innerHTML = item.html;
      body.append(template.content);
      body.classList.add('email');
    } else {
      body.textContent = item.text || labels.empty;
      body.classList.add('text');
    }
    for (const link of body.querySelectorAll('[data-hb-link]')) {
      const open = (event) => {
        event.preventDefault();
        post('openLink', { message: index, link: Number(link.getAttribute('data-hb-link')) });
      };
      link.addEventListener('click', open);
      link.addEventListener('keydown', (event) => (event.key === 'Enter' || event.key === ' ') && open(event));
    }
    const extra = item.imagesButton
      ? button(item.imagesButton, () => post('loadImages', { message: index }), { class: 'images' })
      : item.imagesShown
        ? el('p', { class: 'hint', text: labels.imagesShown })
        : undefined;
    return el('article', { 'aria-labelledby': headingId, class: item.comment ? 'comment' : 'original' }, [head, extra, body]);
  }

  function render(next) {
    model = next;
    const labels = model.labels;
    document.title = model.title;
    const scroll = window.scrollY;
    if (!replyBox) replyBox = makeReply(labels);
    const header = el('header', {}, [el('h1', { text: model.title }), facts(model), actions(model)]);
    const thread = el('section', { id: 'thread', 'aria-labelledby': 'thread-heading' }, [
      el('h2', { id: 'thread-heading', text: labels.thread }),
      model.error ? el('p', { class: 'status error', role: 'alert', text: model.error }) : undefined,
      ...model.messages.map((item, i) => message(item, i, labels)),
      model.commentsNote ? el('p', { class: 'hint', text: model.commentsNote }) : undefined,
    ]);
    const focused = document.activeElement;
    const keep = focused && focused.id ? focused.id : undefined;
    root.replaceChildren(header, el('div', { class: 'columns' }, [el('div', { class: 'main' }, [thread, replyBox.section]), customer(model)]));
    updateReply(model.reply, labels);
    root.setAttribute('aria-busy', 'false');
    if (keep && document.getElementById(keep)) document.getElementById(keep).focus();
    window.scrollTo(0, scroll);
  }

  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || data.type !== 'show' || !data.model) return;
    if (data.model.account !== identity.account || data.model.post !== identity.post) return;
    render(data.model);
  });

  post('ready', typeof state.reply === 'string' ? { reply: state.reply } : {});
})();
