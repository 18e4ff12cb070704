// Builders for the chat product's nested rich-text blocks, and the message markdown that goes with them.

export interface TextStyle {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  code?: boolean;
}

export type Inline =
  | { type: 'text'; text: string; style?: TextStyle }
  | { type: 'user'; user_id: string }
  | { type: 'channel'; channel_id: string }
  | { type: 'link'; url: string; text?: string }
  | { type: 'emoji'; name: string; unicode: string }
  | { type: 'emoji'; name: string; url: string }
  | { type: 'broadcast'; range: 'here' | 'channel' | 'everyone' };

export interface Section {
  type: 'rich_text_section';
  elements: Inline[];
}

export type Container =
  | Section
  | { type: 'rich_text_list'; style: 'bullet' | 'ordered'; indent: number; elements: Section[] }
  | { type: 'rich_text_quote'; elements: Inline[] }
  | { type: 'rich_text_preformatted'; elements: Inline[] };

export interface RichText {
  type: 'rich_text';
  elements: Container[];
}

export const text = (value: string, style?: TextStyle): Inline =>
  style ? { type: 'text', text: value, style } : { type: 'text', text: value };
export const user = (userId: string): Inline => ({ type: 'user', user_id: userId });
export const channel = (channelId: string): Inline => ({ type: 'channel', channel_id: channelId });
export const link = (url: string, label?: string): Inline =>
  label ? { type: 'link', url, text: label } : { type: 'link', url };
export const emoji = (name: string, unicode: string): Inline => ({ type: 'emoji', name, unicode });
export const customEmoji = (name: string, url: string): Inline => ({ type: 'emoji', name, url });
export const broadcast = (range: 'here' | 'channel' | 'everyone'): Inline => ({ type: 'broadcast', range });

export const section = (...elements: Inline[]): Section => ({ type: 'rich_text_section', elements });
export const list = (style: 'bullet' | 'ordered', items: Inline[][], indent = 0): Container => ({
  type: 'rich_text_list',
  style,
  indent,
  elements: items.map((item) => section(...item)),
});
export const quote = (...elements: Inline[]): Container => ({ type: 'rich_text_quote', elements });
export const preformatted = (code: string): Container => ({ type: 'rich_text_preformatted', elements: [text(code)] });
export const richText = (...elements: Container[]): RichText => ({ type: 'rich_text', elements });

function styled(value: string, style: TextStyle | undefined): string {
  if (!style) return value;
  let out = value;
  if (style.code) out = `\`${out}\``;
  if (style.bold) out = `*${out}*`;
  if (style.italic) out = `_${out}_`;
  if (style.strike) out = `~${out}~`;
  return out;
}

function inlineMarkdown(elements: readonly Inline[]): string {
  let out = '';
  for (const element of elements) {
    switch (element.type) {
      case 'text':
        out += styled(element.text, element.style);
        break;
      case 'user':
        out += `<@${element.user_id}>`;
        break;
      case 'channel':
        out += `<#${element.channel_id}>`;
        break;
      case 'link':
        out += element.text ? `<${element.url}|${element.text}>` : `<${element.url}>`;
        break;
      case 'emoji':
        out += `:${element.name}:`;
        break;
      case 'broadcast':
        out += `<!${element.range}>`;
        break;
    }
  }
  return out;
}

function containerMarkdown(container: Container): string {
  switch (container.type) {
    case 'rich_text_section':
      return inlineMarkdown(container.elements);
    case 'rich_text_quote':
      return inlineMarkdown(container.elements)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
    case 'rich_text_preformatted':
      return `\`\`\`\n${inlineMarkdown(container.elements)}\n\`\`\``;
    case 'rich_text_list': {
      const pad = '    '.repeat(container.indent);
      return container.elements
        .map(
          (item, index) =>
            `${pad}${container.style === 'ordered' ? `${index + 1}.` : '•'} ${inlineMarkdown(item.elements)}`,
        )
        .join('\n');
    }
  }
}

/** The message's mrkdwn, as the chat product stores it beside the blocks. */
export function toMarkdown(blocks: readonly RichText[]): string {
  const parts: string[] = [];
  for (const block of blocks) for (const container of block.elements) parts.push(containerMarkdown(container));
  return parts.join('\n');
}
