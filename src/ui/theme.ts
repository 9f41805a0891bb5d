// Side-effect module the app entry imports once: PrimeReact's base styles, the icon font, then the
// portal's own layout (last, so it can refine the theme). The PrimeReact theme itself, light or
// dark, is put in force by ./theme/store.ts before the first render.
import 'primereact/resources/primereact.min.css';
import 'primeicons/primeicons.css';
import './styles.css';
