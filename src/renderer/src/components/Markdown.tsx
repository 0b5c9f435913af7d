import type { Nodes, Parent } from 'mdast';
import { Component, Fragment, useMemo, type ReactNode } from 'react';
import { markdownTree, safeHref } from '../model/markdown-tree';

/**
 * Markdown written by someone else (a comment), rendered safely: parsed to a syntax tree and
 * drawn as React elements from a whitelist. Raw HTML shows as its text, images as their
 * description, links only to web and mail addresses; nothing is ever injected as markup. A body
 * too long or too convoluted to parse quickly shows whole, as plain text.
 */
export function Markdown({ source }: { source: string }) {
  return (
    <PlainOnError key={source} source={source}>
      <Formatted source={source} />
    </PlainOnError>
  );
}

function Formatted({ source }: { source: string }) {
  const tree = useMemo(() => markdownTree(source), [source]);
  return tree === null ? (
    <Plain source={source} />
  ) : (
    <div className="markdown">{children(tree)}</div>
  );
}

function Plain({ source }: { source: string }) {
  return (
    <div className="markdown">
      <p className="plain-text">{source}</p>
    </div>
  );
}

/** A body that fails to render shows as plain text; the rest of the screen stays. */
class PlainOnError extends Component<{ source: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render(): ReactNode {
    return this.state.failed ? <Plain source={this.props.source} /> : this.props.children;
  }
}

function children(node: Parent): ReactNode[] {
  return node.children.map((child, i) => render(child, i));
}

function render(node: Nodes, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.value;
    case 'paragraph':
      return <p key={key}>{children(node)}</p>;
    case 'heading':
      // Headings inside a comment stay inside it: strong text, not page headings.
      return (
        <p key={key}>
          <strong>{children(node)}</strong>
        </p>
      );
    case 'emphasis':
      return <em key={key}>{children(node)}</em>;
    case 'strong':
      return <strong key={key}>{children(node)}</strong>;
    case 'delete':
      return <del key={key}>{children(node)}</del>;
    case 'inlineCode':
      return <code key={key}>{node.value}</code>;
    case 'code':
      return (
        <pre key={key}>
          <code>{node.value}</code>
        </pre>
      );
    case 'blockquote':
      return <blockquote key={key}>{children(node)}</blockquote>;
    case 'list':
      return node.ordered ? (
        <ol key={key} start={node.start ?? undefined}>
          {children(node)}
        </ol>
      ) : (
        <ul key={key}>{children(node)}</ul>
      );
    case 'listItem':
      return (
        <li key={key}>
          {node.checked === true ? '☑ ' : node.checked === false ? '☐ ' : null}
          {node.spread ? children(node) : node.children.map(unwrapParagraph)}
        </li>
      );
    case 'thematicBreak':
      return <hr key={key} />;
    case 'break':
      return <br key={key} />;
    case 'link':
      return <Link key={key} url={node.url} text={children(node)} />;
    case 'image':
    case 'imageReference':
      return <span key={key}>[image: {node.alt ?? ''}]</span>;
    case 'html':
      return <span key={key}>{node.value}</span>;
    default:
      return 'children' in node ? (
        <span key={key}>{children(node)}</span>
      ) : (
        <span key={key}>{'value' in node ? node.value : null}</span>
      );
  }
}

/** A tight list item's paragraphs render inline, as lists in comments usually read. */
function unwrapParagraph(node: Nodes, i: number): ReactNode {
  return node.type === 'paragraph' ? (
    <Fragment key={i}>{children(node)}</Fragment>
  ) : (
    render(node, i)
  );
}

function Link({ url, text }: { url: string; text: ReactNode[] }) {
  const href = safeHref(url);
  if (href === null) return <span>{text}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {text}
    </a>
  );
}
