// Tailwind CSS 4 runs as a PostCSS plugin; Next.js picks this file up for app/globals.css.
const config = { plugins: { "@tailwindcss/postcss": {} } };

export default config;
