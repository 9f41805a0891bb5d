import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // The folder rules of docs/architecture.md, checked rather than hoped for.
    files: ['src/domain/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../api/*', '../machines/*', '../routes/*', '../ui/*', 'react', 'primereact/*', 'xstate'] }] },
  },
  {
    files: ['src/machines/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../routes/*', '../ui/*', 'react-hot-toast', '@tanstack/*', 'primereact/*'] }] },
  },
  {
    // One '../' more for each level: src/ui/<area>/<dialog>/ (a dialog's tabs) is the deepest.
    files: ['src/ui/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            '../api/*', '../../api/*', '../../../api/*',
            '../machines/*', '../../machines/*', '../../../machines/*',
            '../routes/*', '../../routes/*', '../../../routes/*',
            '@tanstack/*',
          ],
        },
      ],
    },
  },
  {
    files: ['server/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['**/src/ui/*', '**/src/routes/*', 'react', 'react-dom'] }] },
  },
);
