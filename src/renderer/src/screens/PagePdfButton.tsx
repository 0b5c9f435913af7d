import { Button } from '../components/Button';
import type { ReviewAction } from '../hooks/use-review-action';

/** Saves one page of the change request as a PDF in Downloads; `action` shows where. */
export function PagePdfButton({
  space,
  number,
  pageId,
  title,
  action,
}: {
  space: string;
  number: number;
  pageId: string;
  title: string;
  action: ReviewAction;
}) {
  const save = () =>
    void action.run('exportChangeRequestPdf', { space, number, pageId, file: null }, (r) => ({
      kind: 'done',
      message: `PDF of ${title} saved to ${r.file}.`,
    }));
  return (
    <Button disabled={action.busy} onClick={save}>
      Export page PDF
    </Button>
  );
}
