// The look of /docs: Hearth's own header (logo, title, colours) and favicon over the packaged Swagger UI.
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

/** A flame in a rounded square beside the words "Hearth API", drawn for the dark header. */
const logo = `<svg xmlns="http://www.w3.org/2000/svg" width="190" height="40" viewBox="0 0 190 40">
<rect x="2" y="2" width="36" height="36" rx="8" fill="#c2410c"/>
<path d="M20 8c1.5 5-4 7.5-4 13a4 4 0 0 0 8 0c0-2-1-3.2-1-5 3 1.8 5 5 5 8.5A8 8 0 0 1 12 24.5C12 17 19 14 20 8z" fill="#fde68a"/>
<text x="48" y="27" font-family="Helvetica, Arial, sans-serif" font-size="20" font-weight="700" fill="#ffffff">Hearth API</text>
</svg>`;

const favicon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40">
<rect x="2" y="2" width="36" height="36" rx="8" fill="#c2410c"/>
<path d="M20 8c1.5 5-4 7.5-4 13a4 4 0 0 0 8 0c0-2-1-3.2-1-5 3 1.8 5 5 5 8.5A8 8 0 0 1 12 24.5C12 17 19 14 20 8z" fill="#fde68a"/>
</svg>`;

const css = `
.swagger-ui .topbar { background-color: #292524; padding: 8px 0; }
.swagger-ui .topbar .download-url-wrapper { display: none; }
.swagger-ui .topbar-wrapper img { height: 40px; }
.swagger-ui .info .title small.version-stamp { background-color: #c2410c; }
.swagger-ui .btn.authorize { border-color: #c2410c; color: #c2410c; }
.swagger-ui .btn.authorize svg { fill: #c2410c; }
`;

/** Options of @fastify/swagger-ui that make the page Hearth's. */
export const docsTheme: Pick<FastifySwaggerUiOptions, 'logo' | 'theme'> = {
  logo: { type: 'image/svg+xml', content: Buffer.from(logo), href: '/docs', target: '_self' },
  theme: {
    title: 'Hearth API',
    css: [{ filename: 'hearth.css', content: css }],
    favicon: [
      { filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(favicon) },
    ],
  },
};
