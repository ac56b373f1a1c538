// The account's images in the mode shown: upload (the API's limits and the account's quota said
// beside the form), list with a thumbnail, the id to copy, and delete (refused while a template
// or an unfinished job uses the image).
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { CallError, call, upload, when } from './api.ts';
import { Confirm } from './keys.tsx';
import { CopyButton, Outcome, Table } from './ui.tsx';

interface Asset {
  id: string;
  type: string;
  width: number;
  height: number;
  bytes: number;
  createdAt: string;
}

interface Assets {
  data: Asset[];
  used: { count: number; bytes: number };
  limits: { maxBytes: number; maxSide: number; maxPixels: number; maxCount: number; maxTotalBytes: number };
}

const mb = (n: number) => `${(n / 1024 / 1024).toLocaleString('en-GB', { maximumFractionDigits: 1 })} MiB`;

export function AssetsPage(props: { accountId: string; mode: 'live' | 'test' }) {
  const { accountId, mode } = props;
  const [assets, setAssets] = useState<Assets | null>(null);
  const [problem, setProblem] = useState('');
  const [done, setDone] = useState('');
  const [deleting, setDeleting] = useState<Asset | null>(null);
  const base = `/accounts/${accountId}/assets`;
  const load = useCallback(
    () =>
      call<Assets>('GET', `${base}?mode=${mode}`).then(setAssets, (e: CallError) => setProblem(e.message)),
    [base, mode],
  );
  useEffect(() => {
    void load();
  }, [load]);

  const send = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const file = new FormData(form).get('file');
    setProblem('');
    setDone('');
    if (!(file instanceof File) || file.size === 0) return setProblem('Choose a PNG or JPEG image first.');
    try {
      const added = await upload<Asset>(
        `${base}?mode=${mode}`,
        file,
        file.type || 'application/octet-stream',
      );
      setDone(`Uploaded ${file.name} as ${added.id}.`);
      form.reset();
      void load();
    } catch (err) {
      const e = err as CallError;
      // The API names its header; the form speaks of the file chosen.
      setProblem(
        e.field === 'Content-Type'
          ? `${file.name} is not a PNG or JPEG image (its type: ${file.type || 'unknown'}); choose a PNG or JPEG.`
          : e.message,
      );
    }
  };

  const l = assets?.limits;
  return (
    <main>
      <h1>Images</h1>
      <p className="lead">Images that templates and documents place, by their id.</p>
      {assets && l ? (
        <p data-testid="quota">
          {assets.used.count} of {l.maxCount} images and {mb(assets.used.bytes)} of {mb(l.maxTotalBytes)} used
          (live and test together). Each image: PNG or JPEG, at most {mb(l.maxBytes)},{' '}
          {l.maxSide.toLocaleString('en-GB')} px a side and {(l.maxPixels / 1e6).toLocaleString('en-GB')}{' '}
          megapixels.
        </p>
      ) : null}
      <section aria-labelledby="upload">
        <h2 id="upload">Upload an image</h2>
        <form onSubmit={send} className="inline" noValidate>
          <div className="field">
            <label htmlFor="asset-file">Image file</label>
            <input id="asset-file" name="file" type="file" accept="image/png,image/jpeg" />
          </div>
          <button type="submit" className="primary">
            Upload
          </button>
        </form>
        <Outcome problem={problem} done={done} />
      </section>
      {assets && assets.data.length === 0 ? <p>No {mode} images yet.</p> : null}
      {assets && assets.data.length > 0 ? (
        <Table columns={['Image', 'Id', 'Size', 'Uploaded']} actions>
          {assets.data.map((a) => (
            <tr key={a.id}>
              <td>
                <img
                  className="thumb"
                  src={`/dashboard/v1${base}/${a.id}/image?mode=${mode}`}
                  alt={`${a.id}, ${a.width} by ${a.height} pixels`}
                />
              </td>
              <td>
                <code>{a.id}</code> <CopyButton text={a.id} label="Copy id" />
              </td>
              <td>
                {a.type.replace('image/', '').toUpperCase()}, {a.width} × {a.height} px, {mb(a.bytes)}
              </td>
              <td>{when(a.createdAt)}</td>
              <td>
                <button type="button" className="danger" onClick={() => setDeleting(a)}>
                  Delete<span className="visually-hidden"> {a.id}</span>
                </button>
              </td>
            </tr>
          ))}
        </Table>
      ) : null}
      {deleting ? (
        <Confirm
          title={`Delete ${deleting.id}?`}
          text="Templates and documents that name it can no longer use it. This cannot be undone."
          action="Delete image"
          onCancel={() => setDeleting(null)}
          onConfirm={async () => {
            const a = deleting;
            setDeleting(null);
            setDone('');
            try {
              await call('POST', `${base}/${a.id}/delete?mode=${mode}`);
              // The list first, then the word: what the page says and shows agree.
              await load();
              setDone(`Deleted ${a.id}.`);
              setProblem('');
            } catch (e) {
              setProblem(e instanceof CallError ? e.message : String(e));
              void load();
            }
          }}
        />
      ) : null}
    </main>
  );
}
