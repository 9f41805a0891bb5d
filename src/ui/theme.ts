// Side-effect module the app entry imports once: PrimeReact theme, its base styles, the icon font,
// then the portal's own layout (last, so it can refine the theme).
import 'primereact/resources/themes/lara-light-blue/theme.css';
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './styles.css';
