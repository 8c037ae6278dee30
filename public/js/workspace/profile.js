// The profile form: the first-login profile step (/workspace/welcome) and the Profile page.
// A picture is the member's own (not a brand's asset) and takes effect as soon as it is
// sent or removed; name and job title complete the profile.
import { element, findElement, requireElement } from '../core/dom.js';
import { formFeedback, setFieldError } from '../core/forms.js';
import { t } from '../core/i18n.js';
import { avatar, call, context, errorMessage, me } from './common.js';
import { uploadProfilePicture } from './upload.js';

const PHONE = /^[+0-9 ().-]{3,40}$/;
const IMAGE = /^image\/(jpeg|png|webp|gif|avif)$/;

const form = requireElement('.ws-profile-form', HTMLFormElement);
const ui = formFeedback(form);
const name = requireElement('[name="name"]', HTMLInputElement, form);
const jobTitle = requireElement('[name="jobTitle"]', HTMLInputElement, form);
const phone = requireElement('[name="phone"]', HTMLInputElement, form);
const fileInput = requireElement('#pf-avatar-file', HTMLInputElement);
const progress = requireElement('.ws-avatar-progress', HTMLProgressElement, form);
const preview = requireElement('[data-avatar-preview]', HTMLElement, form);
const remove = requireElement('[data-avatar-remove]', HTMLButtonElement, form);
const maxBytes = context.uploads?.maxBytes ?? Infinity;

/** Shows the member's picture here and in the sidebar. @param {string | null} url */
function showPicture(url) {
  const person = { id: me.id, name: name.value || me.name, avatar: url };
  preview.replaceChildren(avatar(person, 'xl'));
  document.querySelector('.ws-user .avatar')?.replaceWith(avatar(person, 'large'));
  remove.hidden = !url;
}

/** @param {File} file */
async function uploadPicture(file) {
  progress.hidden = false;
  progress.value = 0;
  try {
    const user = await uploadProfilePicture(file, (fraction) => {
      progress.value = Math.round(fraction * 100);
    });
    showPicture(user.avatar);
  } catch (err) {
    setFieldError(fileInput, errorMessage(err));
  } finally {
    progress.hidden = true;
  }
}

async function removePicture() {
  try {
    const { user } = /** @type {{ user: import('./common.js').Me }} */ (await call('DELETE', '/api/auth/me/avatar'));
    showPicture(user.avatar);
    fileInput.focus();
  } catch (err) {
    setFieldError(fileInput, errorMessage(err));
  }
}

fileInput.addEventListener('change', () => {
  const file = fileInput.files?.[0];
  fileInput.value = '';
  setFieldError(fileInput, '');
  if (!file) return;
  if (!IMAGE.test(file.type)) {
    setFieldError(fileInput, t('profile.avatarType'));
    return;
  }
  if (file.size > maxBytes) {
    setFieldError(fileInput, t('errors.tooLarge'));
    return;
  }
  void uploadPicture(file);
});

remove.addEventListener('click', () => void removePicture());

async function save() {
  ui.busy(true);
  try {
    const { user } = /** @type {{ user: import('./common.js').Me }} */ (
      await call('PATCH', '/api/auth/me', {
        name: name.value.trim(),
        jobTitle: jobTitle.value.trim(),
        phone: phone.value.trim(),
      })
    );
    if (form.dataset.after) {
      window.location.assign(form.dataset.after);
      return;
    }
    for (const node of document.querySelectorAll('.ws-user-name')) node.textContent = user.name;
    document.querySelector('.ws-user .avatar')?.replaceWith(avatar(user, 'large'));
    ui.success(t('profile.saved'));
  } catch (err) {
    ui.error(errorMessage(err));
  } finally {
    ui.busy(false);
  }
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  ui.clear();
  const ok = ui.check([
    [name, name.value.trim() ? '' : t('profile.nameRequired')],
    [jobTitle, jobTitle.value.trim() ? '' : t('profile.jobTitleRequired')],
    [phone, !phone.value.trim() || PHONE.test(phone.value.trim()) ? '' : t('profile.phoneInvalid')],
  ]);
  if (ok) void save();
});

const brandsHolder = findElement('[data-profile-brands]', HTMLElement);
if (brandsHolder) {
  const { brands } = /** @type {{ brands: import('./common.js').Brand[] }} */ (await call('GET', '/api/brands'));
  const mine = brands.filter((b) => me.brandIds.includes(b.id));
  brandsHolder.replaceChildren(
    ...(mine.length ? mine.map((b) => element('span', { className: 'badge badge-muted', text: b.name })) : [t('profile.noBrands')]),
  );
}
