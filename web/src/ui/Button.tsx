import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import { Spinner } from './Spinner.tsx';

export interface ButtonProps extends AriaButtonProps {
  variant?: 'primary' | 'secondary' | 'ghost' | 'danger';
  size?: 'md' | 'sm';
}

/** Every button of the application: a react-aria button (keyboard, press and focus states) in the house style. */
export function Button({ variant = 'secondary', size = 'md', className, children, ...props }: ButtonProps) {
  return (
    <AriaButton {...props} className={['btn', `btn-${variant}`, `btn-${size}`, className].filter(Boolean).join(' ')}>
      {(state) => (
        <>
          {props.isPending && <Spinner size="sm" />}
          {typeof children === 'function' ? children(state) : children}
        </>
      )}
    </AriaButton>
  );
}
