// The profile form: the first-login profile step (/workspace/welcome) and the Profile page.
// A picture is uploaded as an asset of the user's first brand and its thumbnail becomes the
// avatar; name and job title complete the profile.
import { avatar, call, context, element, errorMessage, me, t } from './common.js';
import { formHelpers } from './form.js';
import { uploadFile } from './upload.js';

const PHONE = /^[+0-9 ().-]{3,40}$/;
const IMAGE = /^image\/(jpeg|png|webp|gif|avif)$/;

const form = document.querySelector('.ws-profile-form');
const ui = formHelpers(form);
const { name, jobTitle, phone, avatar: avatarInput } = form.elements;
const fileInput = document.getElementById('pf-avatar-file');
const fileError = document.getElementById('pf-avatar-error');
const progress = form.querySelector('.ws-avatar-progress');
const preview = form.querySelector('[data-avatar-preview]');
const remove = form.querySelector('[data-avatar-remove]');
const maxBytes = context.uploads?.maxBytes ?? Infinity;

function showPicture(url) {
  avatarInput.value = url ?? '';
  preview.replaceChildren(avatar({ id: me.id, name: name.value || me.name, avatar: url || null }, 'xl'));
  remove.hidden = !url;
}

function pictureError(message) {
  fileError.textContent = message;
  fileError.hidden = !message;
}

fileInput.addEventListener('change', async () => {
  const file = fileInput.files?.[0];
  fileInput.value = '';
  pictureError('');
  if (!file) return;
  if (!IMAGE.test(file.type)) return pictureError(t('profile.avatarType'));
  if (file.size > maxBytes) return pictureError(t('errors.tooLarge'));
  if (!me.brandIds?.length) return pictureError(t('profile.avatarNoBrand'));
  progress.hidden = false;
  progress.value = 0;
  try {
    const asset = await uploadFile(file, { brandId: me.brandIds[0] }, (fraction) => {
      progress.value = Math.round(fraction * 100);
    });
    showPicture(asset.thumbnailUrl ?? asset.url);
  } catch (err) {
    pictureError(errorMessage(err));
  } finally {
    progress.hidden = true;
  }
});

remove.addEventListener('click', () => {
  showPicture('');
  fileInput.focus();
});

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  ui.clear();
  const ok = ui.check([
    [name, name.value.trim() ? '' : t('profile.nameRequired')],
    [jobTitle, jobTitle.value.trim() ? '' : t('profile.jobTitleRequired')],
    [phone, !phone.value.trim() || PHONE.test(phone.value.trim()) ? '' : t('profile.phoneInvalid')],
  ]);
  if (!ok) return;
  ui.busy(true);
  try {
    const { user } = await call('PATCH', '/api/auth/me', {
      name: name.value.trim(),
      jobTitle: jobTitle.value.trim(),
      phone: phone.value.trim(),
      avatar: avatarInput.value,
    });
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
});

const brandsHolder = document.querySelector('[data-profile-brands]');
if (brandsHolder) {
  const { brands } = await call('GET', '/api/brands');
  const mine = brands.filter((b) => me.brandIds.includes(b.id));
  brandsHolder.replaceChildren(
    ...(mine.length ? mine.map((b) => element('span', { className: 'badge badge-muted', text: b.name })) : [t('profile.noBrands')]),
  );
}
